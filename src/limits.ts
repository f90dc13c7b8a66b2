// The limits of the seed's Limits table that outlast parsing: the CLI sets
// them, the engine, the tools and the transports read them. Kept apart from
// the CLI so lower layers need not import it.

export interface Limits {
  callsPerStep: number;
  toolResultChars: number;
  runIdleMs: number;
  requestTimeoutMs: number;
  responseBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  callsPerStep: 100,
  toolResultChars: 20_000,
  runIdleMs: 1_800_000,
  requestTimeoutMs: 60_000,
  responseBytes: 10_485_760,
};

/** --max-stepfile-bytes: a stepfile or cases file larger than this is refused before parsing. */
export const DEFAULT_MAX_STEPFILE_BYTES = 4 * 1024 * 1024;

/** --max-sessions: HTTP sessions open at once; at it the longest-idle session without an active run makes room, else `initialize` gets 503 with Retry-After. */
export const DEFAULT_MAX_SESSIONS = 1000;

/** --session-idle-ms: an HTTP session that never started a run is closed after this long without a request. */
export const DEFAULT_SESSION_IDLE_MS = 300_000;

/** --max-runs: open runs in the whole server (every session, both eras); a start past it is refused with ServerBusy. */
export const DEFAULT_MAX_RUNS = 10_000;

/** --max-runs-per-session: open runs one session holds (stdio's one client, a 2025 HTTP session, or every 2026-07-28 client together, as they share one session). */
export const DEFAULT_MAX_RUNS_PER_SESSION = 1_000;
