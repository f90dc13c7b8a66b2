// What a run reports about itself beyond the ledger: every attempt with the
// calls it made and their full results. The ledger keeps only hashes, so
// `--record-cases` (which must write whole results) and `stepgate --test`
// (which compares verdicts) watch a run through this instead.
import type { GateFailure } from "../errors.js";
import type { Evidence } from "./run.js";

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
}

export interface RunObserver {
  /** A step began (not called for skipped steps). */
  stepStarted?(step: string, mechanical: boolean): void;
  attempt?(attempt: Attempt): void;
  ended?(state: "finished" | "failed" | "abandoned"): void;
}
