// Live HTTP sessions and their idle reaping. The SDK's session transport has
// no idle timeout of its own, and a client that vanishes never sends DELETE,
// so without this every abandoned session would keep its server, transport
// and runs forever.
//
// "Activity" is a request naming the session: idle time counts from the end
// of its last POST, and a POST still being answered (a long tool call)
// holds the session open. An open GET event stream alone does not keep a
// session alive: a session whose client sends nothing for `idleMs` is closed
// with its runs, as the seed says, even if a stream is still attached.
//
// Two idle times: a session that never started a run is closed after
// `runlessIdleMs` (5 minutes by default), one that did after `idleMs`
// (--run-idle-ms). And a full store makes room rather than lock newcomers
// out: one local client that opened --max-sessions sessions and left them
// idle would otherwise get every other client a 503 for half an hour. At the
// cap, the longest-idle session that holds no active run (and no request in
// flight) is closed as an idle one is, for the new one; only when every
// session holds a run or a request is a new one refused.
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "../limits.js";
import type { SessionRuns } from "../mcp/factory-types.js";
import type { Session } from "../session.js";

/** Why a session ended; `evicted`: idle, and closed to make room at --max-sessions. */
export type EndReason = "deleted" | "idle" | "evicted" | "closed" | "shutdown";

/** What the ledger says of a session's runs when it ends: the server shutting down, or the session itself. */
export function sessionEndReason(reason: EndReason): "session_closed" | "server_closed" {
  return reason === "shutdown" ? "server_closed" : "session_closed";
}

/** One live session: what the store needs to know to close it. */
export interface SessionEntry {
  /** Which handler owns the entry (a 2025 session, or the shared 2026 one). */
  readonly kind: string;
  readonly session: Session;
  /** Release everything the session holds (transport, server, runs). Called once. */
  close(reason: EndReason): Promise<void>;
}

export interface SessionStoreOptions {
  /** Close a session after this long without activity. */
  idleMs: number;
  /** A session that never started a run is closed after this long without activity (at most idleMs). */
  runlessIdleMs?: number;
  /** What the session's runs say (MCP factory's sessionRuns); without it every session counts as holding a run. */
  runs?: (session: Session) => SessionRuns;
  /** Most sessions open at once (--max-sessions); `makeRoom()` says when a new one must be refused. */
  maxSessions?: number;
  /**
   * A session added as awaiting its client (an `initialize` nobody followed
   * up) is closed after this long without a second request. Junk
   * `initialize` calls would otherwise hold memory until the idle timeout.
   */
  initGraceMs?: number;
  /** Told after a session was removed and closed; `kind` is its entry's (SessionEntry.kind). */
  onEnded?: (session: Session, reason: EndReason, kind: string) => void;
  /** Clock, for tests. */
  now?: () => number;
}

/** A silent `initialize` is gone within seconds. */
export const DEFAULT_INIT_GRACE_MS = 10_000;

interface Slot {
  entry: SessionEntry;
  lastActive: number;
  /** False until a request after the one that opened it names the session. */
  confirmed: boolean;
  /** Requests still being answered; a held session is never idle. */
  holds: number;
}

export class SessionStore {
  readonly #slots = new Map<string, Slot>();
  readonly #idleMs: number;
  readonly #runlessIdleMs: number;
  readonly #runs: (session: Session) => SessionRuns;
  readonly #maxSessions: number;
  readonly #initGraceMs: number;
  readonly #now: () => number;
  readonly #onEnded: ((session: Session, reason: EndReason, kind: string) => void) | undefined;
  readonly #sweeper: NodeJS.Timeout;
  #closed = false;

  constructor(options: SessionStoreOptions) {
    this.#idleMs = options.idleMs;
    this.#runlessIdleMs = Math.min(options.runlessIdleMs ?? DEFAULT_SESSION_IDLE_MS, options.idleMs);
    this.#runs = options.runs ?? (() => ({ active: true, started: true }));
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#initGraceMs = options.initGraceMs ?? DEFAULT_INIT_GRACE_MS;
    this.#now = options.now ?? Date.now;
    this.#onEnded = options.onEnded;
    // Sweeping at a fraction of idleMs (and of the init grace) bounds how
    // late a reap can be without a timer per session; unref so the store
    // never holds the process open.
    const every = Math.max(5, Math.min(this.#runlessIdleMs / 4, this.#initGraceMs / 2, 30_000));
    this.#sweeper = setInterval(() => void this.sweep(), every).unref();
  }

  get size(): number {
    return this.#slots.size;
  }

  has(id: string): boolean {
    return this.#slots.has(id);
  }

  /**
   * Room for one more session: true when under --max-sessions, or after
   * closing the longest-idle session that holds no active run and no request
   * in flight (reason `evicted`); false (answer 503) when every session holds
   * one. The choice is made synchronously, so concurrent callers never pick
   * the same session.
   */
  makeRoom(): boolean {
    if (this.#slots.size < this.#maxSessions) return true;
    let oldest: [string, Slot] | undefined;
    for (const entry of this.#slots) {
      const slot = entry[1];
      if (slot.holds > 0 || (oldest && oldest[1].lastActive <= slot.lastActive)) continue;
      if (this.#runs(slot.entry.session).active) continue;
      oldest = entry;
    }
    if (!oldest) return false;
    void this.end(oldest[0], "evicted");
    return true;
  }

  /**
   * Seconds a client refused at the cap should wait (Retry-After): until the
   * soonest moment a session will surely be closed, an unconfirmed one after
   * its grace, any other after idleMs without a request (a request in flight
   * counts as active now). A session may free sooner, when its run ends; a
   * fixed 10 s told clients to come back long before sessions holding runs
   * of up to --run-idle-ms could make room.
   */
  get retryAfterSeconds(): number {
    const now = this.#now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const slot of this.#slots.values()) {
      const since = slot.holds > 0 ? now : slot.lastActive;
      soonest = Math.min(soonest, since + (slot.confirmed ? this.#idleMs : this.#initGraceMs));
    }
    return Number.isFinite(soonest) ? Math.max(1, Math.ceil((soonest - now) / 1000)) : 1;
  }

  /** `awaitingClient`: the session's opening request is its only one so far (see initGraceMs). */
  add(entry: SessionEntry, options: { awaitingClient?: boolean } = {}): void {
    this.#slots.set(entry.session.id, { entry, lastActive: this.#now(), holds: 0, confirmed: !options.awaitingClient });
    // A session opened by a request already in flight at shutdown is ended at once.
    if (this.#closed) void this.end(entry.session.id, "shutdown");
  }

  /** The session's entry without marking it active (a request not yet known to be served). */
  peek(id: string): SessionEntry | undefined {
    return this.#slots.get(id)?.entry;
  }

  /** The session's entry, marked active now; undefined when unknown or already ended. */
  touch(id: string): SessionEntry | undefined {
    const slot = this.#slots.get(id);
    if (slot) {
      slot.lastActive = this.#now();
      slot.confirmed = true;
    }
    return slot?.entry;
  }

  /**
   * Keep a session from idling out until the returned release is called;
   * idle time then counts from the release. Release is idempotent, and a
   * no-op once the session has ended.
   */
  hold(id: string): () => void {
    const slot = this.#slots.get(id);
    if (!slot) return () => undefined;
    slot.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slot.holds -= 1;
      slot.lastActive = this.#now();
    };
  }

  /** Remove and close one session. Idempotent: a second call for the same id does nothing. */
  async end(id: string, reason: EndReason): Promise<void> {
    const slot = this.#slots.get(id);
    if (!slot) return;
    // Removed before closing so that close callbacks re-entering end() stop here.
    this.#slots.delete(id);
    try {
      await slot.entry.close(reason);
    } finally {
      this.#onEnded?.(slot.entry.session, reason, slot.entry.kind);
    }
  }

  /**
   * Close every session idle for idleMs or longer, every one that never
   * started a run idle for runlessIdleMs, and every unconfirmed one older
   * than initGraceMs.
   */
  async sweep(): Promise<void> {
    const now = this.#now();
    const cutoff = now - this.#idleMs;
    const runlessCutoff = now - this.#runlessIdleMs;
    const graceCutoff = now - this.#initGraceMs;
    const idle = [...this.#slots]
      .filter(([, slot]) => {
        if (slot.holds > 0) return false;
        if (slot.lastActive <= cutoff || (!slot.confirmed && slot.lastActive <= graceCutoff)) return true;
        return slot.lastActive <= runlessCutoff && !this.#runs(slot.entry.session).started;
      })
      .map(([id]) => id);
    await Promise.allSettled(idle.map((id) => this.end(id, "idle")));
  }

  /** Stop reaping and close every session, and any added later. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#slots.keys()].map((id) => this.end(id, "shutdown")));
  }
}
