// Everything a run needs from outside comes in through RunContext, so the
// engine holds no transport, no MCP type and no global state, and tests and
// `stepgate --test` drive it with fakes of these small interfaces.
import type { LoadedStepfile } from "../loader/load.js";
import type { Toolbox } from "./toolbox.js";
import type { LedgerWriter } from "./records.js";
import type { RunObserver } from "./observer.js";
import type { RunEvents } from "./events.js";

export interface Limits {
  callsPerStep: number;
  toolResultChars: number;
}

export interface ApprovalRequest {
  step: string;
  gate: string;
  message: string;
  output: unknown;
}

export type ApprovalAnswer = { approved: true } | { approved: false; reason: string };

/**
 * How a run reaches a person for approve gates (MCP elicitation, when the
 * client supports it). Two shapes, because the two protocol revisions differ
 * in who waits:
 * - `ask`: the transport can ask within the call that submitted and waits for
 *   the answer (2025-11-25 push-style elicitation).
 * - `between-calls`: the transport cannot hold the call open for a person
 *   (2026-07-28 input-required results). The run parks the checked
 *   submission as a pending approval and replies `approval`; the client asks
 *   the person and repeats the same call with the answers, which the run
 *   applies to what it kept. Nothing the client echoes decides the verdict.
 */
export type Approver = { kind: "ask"; approve(request: ApprovalRequest): Promise<ApprovalAnswer> } | { kind: "between-calls" };

export interface RunContext {
  limits: Limits;
  /** A fresh ledger for each run (src/ledger chains and stores what it is given). */
  ledger: (stepfile: string, run: string) => LedgerWriter;
  newRunId: () => string;
  /**
   * Preflight in the seed's order and the run's tools: settings, then
   * `checkInputs` (the engine's own check), then credentials, documents and
   * MCP servers. Throws PreflightFailed naming the item. `events` hears each
   * item opened and each retry while the run's first request waits.
   */
  openToolbox: (stepfile: LoadedStepfile, ledger: LedgerWriter, checkInputs: () => void, events?: RunEvents) => Promise<Toolbox>;
  /**
   * Set per run by the transport when its client can ask a person (MCP
   * elicitation); `stepgate --test` sets one that answers from the cases file.
   */
  approver?: Approver;
  /**
   * How many attempts an agent step gets. `retries` (the default, every live
   * run): 1 + the step's `retries`, then the run fails with GateFailed.
   * `unbounded`: a failing attempt always leaves the step waiting for another,
   * for a caller that itself decides how many attempts there are
   * (`stepgate --test`, where a cases file lists them).
   */
  attemptBudget?: "retries" | "unbounded";
  /** Sees each run's attempts as they happen (`--record-cases`, `--test`); undefined to watch nothing. */
  observe?: (run: { id: string; stepfile: LoadedStepfile; inputs: Record<string, unknown> }) => RunObserver | undefined;
}
