// Everything a run needs from outside comes in through RunContext, so the
// engine holds no transport, no MCP type and no global state, and tests and
// `stepgate --test` drive it with fakes of these small interfaces.
import type { LoadedStepfile } from "../loader/load.js";
import type { Toolbox } from "./toolbox.js";
import type { LedgerWriter } from "./records.js";
import type { RunObserver } from "./observer.js";

export interface Limits {
  callsPerStep: number;
  toolResultChars: number;
}

/** Asks a person to approve an output (MCP elicitation, when the client supports it). */
export interface Approver {
  approve(request: { step: string; gate: string; message: string; output: unknown }): Promise<{ approved: true } | { approved: false; reason: string }>;
}

export interface RunContext {
  limits: Limits;
  /** A fresh ledger for each run (src/ledger chains and stores what it is given). */
  ledger: (stepfile: string, run: string) => LedgerWriter;
  newRunId: () => string;
  /**
   * Preflight in the seed's order and the run's tools: settings, then
   * `checkInputs` (the engine's own check), then credentials, documents and
   * MCP servers. Throws PreflightFailed naming the item.
   */
  openToolbox: (stepfile: LoadedStepfile, ledger: LedgerWriter, checkInputs: () => void) => Promise<Toolbox>;
  /**
   * Set per run by the transport when its client can ask a person (MCP
   * elicitation); `stepgate --test` sets one that answers from the cases file.
   */
  approver?: Approver;
  /** Sees each run's attempts as they happen (`--record-cases`, `--test`); undefined to watch nothing. */
  observe?: (run: { id: string; stepfile: LoadedStepfile; inputs: Record<string, unknown> }) => RunObserver | undefined;
}
