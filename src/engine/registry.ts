// The runs a server holds: who owns each (the session that started it), and
// when each was last called, so a run the client stops calling for
// --run-idle-ms is abandoned. Both transports share this.
//
// Open runs are bounded: at most `maxRuns` in the server and
// `maxRunsPerSession` per owner (a run being started counts), past which a
// start is refused with ServerBusy before anything is written. Without a
// bound, runs started and never finished (2026-07-28 clients hold no
// session that could end them) grew memory for --run-idle-ms each.
import { RunNotActive, ServerBusy, StepgateError } from "../errors.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { Session } from "../session.js";
import type { Approver, RunContext } from "./context.js";
import type { Reply } from "./replies.js";
import { Run } from "./run.js";
import type { RunState } from "./run-types.js";
import type { ApprovalAnswers } from "./approval-wait.js";
import type { RunEvents } from "./events.js";

/** Why a run was abandoned, and whose it was, for a transport that tells its client. */
export interface Abandoned {
  run: string;
  owner: string;
  reason: "idle" | "session_closed" | "server_closed";
}

interface Held {
  run: Run;
  owner: string;
  timer: NodeJS.Timeout;
}

/** How many ended runs are remembered, so a late call hears how its run ended. */
const REMEMBERED_ENDINGS = 10_000;

/** Most open runs (--max-runs, --max-runs-per-session); unbounded where not given. */
export interface RunCaps {
  maxRuns?: number;
  maxRunsPerSession?: number;
}

export class RunRegistry {
  private readonly active = new Map<string, Held>();
  private readonly ended = new Map<string, { owner: string; state: Exclude<RunState, "running"> }>();
  private readonly abandonedListeners = new Set<(abandoned: Abandoned) => void>();
  /** Active runs per owner, and the owners that ever started one: what an HTTP session cap and idle policy ask (hasActiveRun, hasStartedRun). */
  private readonly activeByOwner = new Map<string, number>();
  private readonly starters = new Set<string>();
  /** Runs held plus runs being started: what the caps count. */
  private open = 0;
  /** Abandonments under way, which closeAll waits for whoever started them (a DELETE, idle time). */
  private readonly abandoning = new Set<Promise<void>>();
  /** Abandonments that failed (a ledger that could not be written), reported by closeAll. */
  private readonly failures: unknown[] = [];

  constructor(
    private readonly ctx: RunContext,
    private readonly idleMs: number,
    private readonly caps: RunCaps = {},
  ) {}

  get size(): number {
    return this.active.size;
  }

  /** Start a run for `owner`; `approver` asks its person when the client can (approve gates); `events` hears this request's progress. */
  async start(stepfile: LoadedStepfile, inputs: unknown, owner: Session, approver?: Approver, events?: RunEvents): Promise<Reply> {
    const refused = this.refusal(owner.id);
    if (refused) return { kind: "failed", run: "", state: "failed", error: refused };
    this.starters.add(owner.id);
    this.count(owner.id, 1);
    let started: Awaited<ReturnType<typeof Run.start>>;
    try {
      started = await Run.start(stepfile, inputs, approver ? { ...this.ctx, approver } : this.ctx, events);
    } catch (error) {
      this.count(owner.id, -1);
      // Its first ledger record could not be written for a passing reason: nothing started.
      if (error instanceof ServerBusy) return { kind: "failed", run: "", state: "failed", error };
      throw error;
    }
    const { run, reply } = started;
    if (run.state === "running") this.active.set(run.id, { run, owner: owner.id, timer: this.idleTimer(run.id) });
    else {
      this.count(owner.id, -1);
      this.remember(run.id, owner.id, run.state);
    }
    return reply;
  }

  /** Why a new run of `owner` would pass a cap, if it would. */
  private refusal(owner: string): StepgateError | undefined {
    const { maxRuns, maxRunsPerSession } = this.caps;
    if (maxRuns !== undefined && this.open >= maxRuns) {
      return new ServerBusy(`the server holds ${maxRuns} open runs, its limit (--max-runs); a run ends when finished, failed or idle for --run-idle-ms`, { limit: maxRuns, scope: "server" });
    }
    if (maxRunsPerSession !== undefined && (this.activeByOwner.get(owner) ?? 0) >= maxRunsPerSession) {
      return new ServerBusy(`this session holds ${maxRunsPerSession} open runs, its limit (--max-runs-per-session); finish one, or let one idle out after --run-idle-ms`, { limit: maxRunsPerSession, scope: "session" });
    }
    return undefined;
  }

  /** One more (or one fewer) open run of `owner`. */
  private count(owner: string, by: 1 | -1) {
    this.open += by;
    const left = (this.activeByOwner.get(owner) ?? 0) + by;
    if (left > 0) this.activeByOwner.set(owner, left);
    else this.activeByOwner.delete(owner);
  }

  call(runId: string, owner: Session, operation: string, args: unknown, events?: RunEvents): Promise<Reply> {
    return this.use(runId, owner, (run) => run.call(operation, args, events));
  }

  /** `answers` are a person's, for a submission that waits for approval (approver `between-calls`). */
  submit(runId: string, owner: Session, output: unknown, answers?: ApprovalAnswers, events?: RunEvents): Promise<Reply> {
    return this.use(runId, owner, (run) => run.submit(output, answers, events));
  }

  /** The call that started a run came back with a person's answers (approver `between-calls`). */
  answerStart(runId: string, owner: Session, inputs: unknown, answers: ApprovalAnswers | undefined, events?: RunEvents): Promise<Reply> {
    return this.use(runId, owner, (run) => run.answerStart(inputs, answers, events));
  }

  /** Hears every run abandoned (idle, or its session or the server closed); returns the way to stop listening. */
  onAbandoned(listener: (abandoned: Abandoned) => void): () => void {
    this.abandonedListeners.add(listener);
    return () => this.abandonedListeners.delete(listener);
  }

  /** Whether `owner` holds a run that has not ended. */
  hasActiveRun(owner: Session): boolean {
    return this.activeByOwner.has(owner.id);
  }

  /** Whether `owner` ever started a run (ended or not), since its session began. */
  hasStartedRun(owner: Session): boolean {
    return this.starters.has(owner.id);
  }

  /** A session ended: abandon every run it owns. */
  async endSession(owner: Session, reason: "session_closed" | "server_closed" = "session_closed"): Promise<void> {
    this.starters.delete(owner.id);
    const owned = [...this.active.values()].filter((h) => h.owner === owner.id);
    await Promise.allSettled(owned.map((h) => this.abandon(h.run.id, reason)));
    for (const [id, e] of this.ended) if (e.owner === owner.id) this.ended.delete(id);
  }

  /** The ids of the runs `owner` started that are still held or remembered. */
  runsOf(owner: Session): string[] {
    const ids = [...this.active].filter(([, h]) => h.owner === owner.id).map(([id]) => id);
    for (const [id, e] of this.ended) if (e.owner === owner.id) ids.push(id);
    return ids;
  }

  /**
   * Abandon every run still open, and wait for abandonments already under
   * way (a session deleted just before), so every run_abandoned is written
   * when this resolves. Throws the first failure to write one, once all
   * have been tried.
   */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.active.keys()].map((id) => this.abandon(id, "server_closed")));
    while (this.abandoning.size > 0) await Promise.allSettled([...this.abandoning]);
    if (this.failures.length > 0) throw this.failures[0];
  }

  private async use(runId: string, owner: Session, work: (run: Run) => Promise<Reply>): Promise<Reply> {
    const held = this.active.get(runId);
    if (!held || held.owner !== owner.id) {
      const ended = this.ended.get(runId);
      const state = ended && ended.owner === owner.id ? ended.state : "unknown";
      return { kind: "failed", run: String(runId), state: state === "finished" ? "finished" : "failed", error: new RunNotActive(String(runId), state) };
    }
    held.timer.refresh();
    const reply = await work(held.run);
    if (held.run.state !== "running") {
      clearTimeout(held.timer);
      this.release(runId, held);
      this.remember(runId, held.owner, held.run.state);
    } else held.timer.refresh();
    return reply;
  }

  private idleTimer(runId: string): NodeJS.Timeout {
    // A failure to write its ledger is kept for closeAll to report.
    const timer = setTimeout(() => void this.abandon(runId, "idle").catch(() => undefined), this.idleMs);
    timer.unref();
    return timer;
  }

  private abandon(runId: string, reason: "idle" | "session_closed" | "server_closed"): Promise<void> {
    const held = this.active.get(runId);
    if (!held) return Promise.resolve();
    clearTimeout(held.timer);
    this.release(runId, held);
    const done = (async () => {
      try {
        await held.run.abandon(reason);
      } catch (error) {
        this.failures.push(error);
        throw error;
      } finally {
        this.remember(runId, held.owner, held.run.state === "running" ? "abandoned" : held.run.state);
      }
      if (held.run.state === "abandoned") for (const listener of this.abandonedListeners) listener({ run: runId, owner: held.owner, reason });
    })();
    this.abandoning.add(done);
    // Kept until settled; a failure is reported through closeAll, and to whoever awaits this.
    void done.catch(() => undefined).finally(() => this.abandoning.delete(done));
    return done;
  }

  /** The run is no longer active: out of the active map and its owner's count. */
  private release(runId: string, held: Held) {
    if (this.active.delete(runId)) this.count(held.owner, -1);
  }

  private remember(runId: string, owner: string, state: RunState) {
    if (state === "running") return;
    this.ended.set(runId, { owner, state });
    if (this.ended.size > REMEMBERED_ENDINGS) this.ended.delete(this.ended.keys().next().value!);
  }
}
