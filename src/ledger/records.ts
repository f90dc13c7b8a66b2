// The ledger's record types (the run's own are defined where runs emit them,
// in src/engine/records.ts; `checkpoint` belongs to the ledger alone) and the
// header every stored record carries.

import type { RecordFields, RecordType } from "../engine/records.js";

export type { RecordFields, RecordType };

/**
 * A signed record the chain writes by itself, with a signing key only: every
 * `--checkpoint-every` records, and at a clean shutdown while the run is
 * still open, so a file cut after it is told apart from one cut anywhere.
 */
export interface CheckpointFields {
  reason: "interval" | "shutdown";
}

export type LedgerRecordType = RecordType | "checkpoint";

export const CLOSING_TYPES = ["run_finished", "run_failed", "run_abandoned"] as const satisfies readonly RecordType[];

export const RECORD_TYPES = [
  "run_started", "step_started", "step_skipped", "step_passed", "tool_call", "computed", "tool_refused",
  "submit", "derived", "gate", "retry", "run_finished", "run_failed", "run_abandoned", "checkpoint",
] as const satisfies readonly LedgerRecordType[];

export function isClosing(type: unknown): boolean {
  return (CLOSING_TYPES as readonly unknown[]).includes(type);
}

export interface RecordHeader {
  run: string;
  stepfile: string;
  seq: number;
  type: LedgerRecordType;
  at: string;
  prev: string | null;
}

export type LedgerRecord = RecordHeader & Record<string, unknown>;
