// Progress notifications for a tools/call that carried a progressToken, made
// from the run's events (src/engine/events.ts), which clients show as a
// progress bar. MCP requires `progress` to grow with every notification of a
// token, while the run reports counts per phase (preflight item 2 of 3, call
// 4 of 10 of one `each`): each phase is laid after the progress already
// reported, and an event without a count of its own (a retry's wait, an
// approval wait) moves the bar on by one within the phase.
import type { ServerContext } from "@modelcontextprotocol/server";
import type { RunEvent, RunEvents } from "../engine/events.js";

/** Sends `notifications/progress` for `token`'s request; returns undefined when the request carried no token. */
export function progressNotifier(ctx: ServerContext, token: string | number | undefined): RunEvents | undefined {
  if (token === undefined) return undefined;
  let progress = 0;
  /** The progress reported before the current counted phase began. */
  let base = 0;
  let phaseTotal: number | undefined;
  return (event) => {
    const counted = "n" in event ? { n: event.n, total: event.total } : undefined;
    if (counted) {
      if (counted.n === 1 || phaseTotal === undefined) {
        base = progress;
        phaseTotal = counted.total;
      }
      progress = base + counted.n;
    } else {
      progress += 1;
      base += 1;
    }
    const total = phaseTotal === undefined ? undefined : base + phaseTotal;
    void ctx.mcpReq
      .notify({ method: "notifications/progress", params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message: progressMessage(event) } })
      .catch(() => undefined);
  };
}

/** One line a client can show beside the bar: names, counts and waits, never arguments or results. */
export function progressMessage(event: RunEvent): string {
  switch (event.kind) {
    case "preflight":
      return `preflight: ${event.item} ready (${event.n} of ${event.total})`;
    case "call":
      return `step ${event.step}: call ${event.call} (${event.operation}) ${event.n} of ${event.total}`;
    case "retry":
      return `${event.operation}: ${event.status === null ? "no answer" : `HTTP ${event.status}`}; retry ${event.attempt} in ${event.waitMs} ms`;
    case "approval":
      return `step ${event.step}: gate ${event.gate} waits for a person's approval`;
    case "refused":
      return `${event.operation}: request to ${event.host} refused (no tool of this stepfile declares that host)`;
  }
}
