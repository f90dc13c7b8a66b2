// One deadline per attempt. It is a timer we own rather than
// AbortSignal.timeout() so that an MCP event stream can disarm it once its
// headers arrive (the seed: an event stream has no deadline).

export interface Deadline {
  /** Aborts on expiry or when the caller's signal aborts; give it to undici. */
  readonly signal: AbortSignal;
  /** True once the timer fired (as opposed to the caller aborting). */
  expired(): boolean;
  /** Stops the timer; the caller's signal still aborts. */
  disarm(): void;
}

export function startDeadline(timeoutMs: number, outer?: AbortSignal | null): Deadline {
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort(new DOMException(`no complete response within ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const signal = outer ? AbortSignal.any([controller.signal, outer]) : controller.signal;
  return {
    signal,
    expired: () => fired,
    disarm: () => clearTimeout(timer),
  };
}
