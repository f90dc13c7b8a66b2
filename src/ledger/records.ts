// The ledger's record types (their fields are defined where runs emit them,
// in src/engine/records.ts) and the header every stored record carries.

import type { RecordFields, RecordType } from "../engine/records.js";

export type { RecordFields, RecordType };

export const RECORD_TYPES = [
  "run_started", "step_started", "step_skipped", "step_passed", "tool_call", "computed", "tool_refused",
  "submit", "derived", "gate", "retry", "run_finished", "run_failed", "run_abandoned",
] as const satisfies readonly RecordType[];

export interface RecordHeader {
  run: string;
  stepfile: string;
  seq: number;
  type: RecordType;
  at: string;
  prev: string | null;
}

export type LedgerRecord = RecordHeader & Record<string, unknown>;
