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

/**
 * The most one fetch made while loading or checking may take in all, every
 * attempt and every wait between them included: an Arazzo source description
 * fetched to serve or convert a document, and an OpenAPI document pinned by
 * url + sha256 that `--check` and stepgate_validate fetch as preflight would.
 * The seed bounds only each request (--request-timeout-ms, 60 s) and the
 * waits (up to 60 s each, four retries), so a server that never answers held
 * a start or a check for five minutes. 15 s still leaves room for all five of
 * the seed's attempts at a server that fails fast (the backoff waits add up
 * to 7.5 s), and for a document of --response-bytes on a slow link, while a
 * person or a CI job waiting on it is not kept waiting long. A shorter
 * --request-timeout-ms shortens it too, so one option tunes both.
 */
export const LOAD_FETCH_MS = 15_000;

/** The bound in all of a fetch made while loading or checking (LOAD_FETCH_MS), given --request-timeout-ms. */
export function loadFetchMs(requestTimeoutMs: number): number {
  return Math.min(requestTimeoutMs, LOAD_FETCH_MS);
}

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
