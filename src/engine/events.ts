// What a run tells whoever waits on the request it is handling, as it
// happens: which call of a mechanical step's `each` it is making, which
// preflight item it opened, that a request is being retried and for how long
// it waits, that an output waits for a person, that a request was refused.
// The MCP layer turns these into progress notifications and log messages.
// Free of MCP types, and of anything secret: names, counts, statuses and
// waits only, never arguments, responses or evidence.

export type RunEvent =
  /** A preflight item (a tool's document fetched or its MCP server reached) is ready: `n` of `total`. */
  | { kind: "preflight"; item: string; n: number; total: number }
  /** A mechanical step's call is about to be made; `n` of `total` for a call with `each`, else 1 of 1. */
  | { kind: "call"; step: string; call: string; operation: string; n: number; total: number }
  /** A request failed in a way worth retrying; the next attempt comes after `waitMs`. */
  | { kind: "retry"; step: string | null; operation: string; attempt: number; status: number | null; waitMs: number }
  /** A gate waits for a person's answer. */
  | { kind: "approval"; step: string; gate: string }
  /** Egress refused a request (a host no tool declares); `host` is the refused host. */
  | { kind: "refused"; step: string | null; operation: string; host: string };

/** Receives a run's events for one request; never throws into the run. */
export type RunEvents = (event: RunEvent) => void;
