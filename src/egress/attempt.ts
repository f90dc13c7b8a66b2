// One attempt: a deadline around the whole of it (every hop, and the body),
// and the sorting of what went wrong into "retry may help" (a network error
// or missed deadline, as an AttemptFailure) versus everything else.
import { StepgateError } from "../errors.js";
import { type Deadline, startDeadline } from "./deadline.js";

/** A network error or missed deadline; `reason` is safe to show (no secret). */
export class AttemptFailure extends Error {
  override readonly name = "AttemptFailure";
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A short, value-free description of a socket-level error. */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return "network error";
  const code = (error as { code?: unknown }).code;
  return `network error: ${typeof code === "string" ? `${code}: ` : ""}${error.message}`;
}

/**
 * Runs `work` under a fresh deadline. The deadline is disarmed when `work`
 * returns, so a result that is still streaming (an MCP event stream) has
 * none from then on, unless `work` called `keep` and so took the deadline
 * over (the answer to a request, streamed as events, must still end in
 * time); the caller's signal keeps working throughout.
 */
export async function runAttempt<T>(timeoutMs: number, outer: AbortSignal | null | undefined, work: (signal: AbortSignal, keep: () => Deadline) => Promise<T>): Promise<T> {
  const deadline = startDeadline(timeoutMs, outer);
  let kept = false;
  try {
    return await work(deadline.signal, () => ((kept = true), deadline));
  } catch (error) {
    kept = false;
    if (deadline.expired() && !(error instanceof StepgateError)) throw new AttemptFailure(`no complete response within ${timeoutMs} ms`);
    if (outer?.aborted) throw outer.reason;
    if (error instanceof StepgateError || error instanceof AttemptFailure) throw error;
    throw new AttemptFailure(describeNetworkError(error));
  } finally {
    if (!kept) deadline.disarm();
  }
}
