// The ledger's record types and the fields each carries (the seed's table).
// Bodies, responses and outputs appear only as `sha256:` hashes and lengths;
// no credential value, nor a hash of one, ever appears.

export interface RecordFields {
  run_started: { identity: string; inputs_hash: string };
  step_started: { step: string; attempt: number };
  step_skipped: { step: string; attempt: number };
  step_passed: { step: string; attempt: number };
  tool_call: {
    step: string;
    tool: string;
    operation: string;
    host: string;
    status: number | null;
    duration_ms: number;
    credential: string | null;
    response_hash: string;
    response_length: number;
    shown_length: number | null;
    caller: "client" | "stepgate";
    call?: string;
  };
  computed: { step: string; output_hash: string; output_length: number };
  tool_refused: { step: string; operation: string };
  submit: { step: string; attempt: number; output_hash: string; output_length: number };
  derived: { step: string; attempt: number; output_hash: string; output_length: number };
  gate: { step: string; attempt: number; gate: string; verdict: "pass" | "fail"; diagnosis_hash: string | null };
  retry: { step: string | null; operation: string; attempt: number; status: number | null; wait_ms: number };
  run_finished: { outcome: "finished"; outputs_hash: string };
  run_failed: { outcome: "failed"; error: string; step: string | null };
  run_abandoned: { outcome: "abandoned"; reason: "idle" | "session_closed" | "server_closed" };
}

export type RecordType = keyof RecordFields;

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
