// What a run reports about itself beyond the ledger: every attempt with the
// calls it made and their full results. The ledger keeps only hashes, so
// `--record-cases` (which must write whole results) and `stepgate --test`
// (which compares verdicts) watch a run through this instead. Tracing
// (src/telemetry) watches through it too: `around` lets it run a phase of
// the run inside a trace context of its own, without the engine knowing of it.
import type { GateFailure } from "../errors.js";
import type { Evidence } from "./run-types.js";

/** One call of an attempt, as gates saw it, plus the HTTP status an `accept` list needs on replay. */
export interface AttemptCall extends Evidence {
  status: number | null;
}

export interface Attempt {
  step: string;
  mechanical: boolean;
  /** Calls that reached their tool since the previous attempt of this step (evidence accumulates across attempts). */
  calls: AttemptCall[];
  /** What the client submitted (without derived fields), or what a mechanical step computed. */
  output: unknown;
  /** Failing gates; empty when the attempt passed. */
  failures: GateFailure[];
  /** The ids of the gates that passed (in the order they were checked). */
  passed: string[];
}

/** A stretch of a run's work done on its behalf, which an observer may wrap. */
export type RunPhase =
  | { kind: "preflight" }
  | { kind: "call"; step: string; operation: string }
  | { kind: "verifier"; step: string; gate: string; tool: string }
  /** A person is asked within the call (an `ask` approver); waits between calls are `approvalWaiting`. */
  | { kind: "approval"; step: string; gate: string };

export interface RunObserver {
  /** A step began (not called for skipped steps). */
  stepStarted?(step: string, mechanical: boolean): void;
  attempt?(attempt: Attempt): void;
  /** The run ended; `error` is the error type of a failed run. */
  ended?(state: "finished" | "failed" | "abandoned", error?: string): void;
  /** Runs `work` (exactly once) and returns what it returns; an observer may time it or run it in a context of its own. */
  around?<T>(phase: RunPhase, work: () => Promise<T>): Promise<T>;
  /** A checked output waits between calls for a person's answer to `gates`; the wait ends with the step's next attempt or the run's end. */
  approvalWaiting?(step: string, gates: string[]): void;
}

/** Several observers as one, each told everything in turn (`--record-cases` beside tracing). */
export function allObservers(observers: ReadonlyArray<RunObserver | undefined>): RunObserver | undefined {
  const list = observers.filter((o): o is RunObserver => o !== undefined);
  if (list.length <= 1) return list[0];
  return {
    stepStarted: (step, mechanical) => list.forEach((o) => o.stepStarted?.(step, mechanical)),
    attempt: (attempt) => list.forEach((o) => o.attempt?.(attempt)),
    ended: (state, error) => list.forEach((o) => o.ended?.(state, error)),
    around: <T>(phase: RunPhase, work: () => Promise<T>) => list.reduceRight<() => Promise<T>>((inner, o) => (o.around ? () => o.around!(phase, inner) : inner), work)(),
    approvalWaiting: (step, gates) => list.forEach((o) => o.approvalWaiting?.(step, gates)),
  };
}
