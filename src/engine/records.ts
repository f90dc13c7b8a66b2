// What a run records, as the seed's ledger table lists it: the engine emits
// these through its LedgerWriter, and src/ledger chains and stores them.
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
    /** `null` for a call that got no usable answer (see `error`). */
    response_hash: string | null;
    response_length: number | null;
    shown_length: number | null;
    caller: "client" | "stepgate";
    call?: string;
    /** The error type of a client's call that got no usable answer and left the run going (`ToolCallFailed`). */
    error?: "ToolCallFailed";
  };
  computed: { step: string; output_hash: string; output_length: number };
  tool_refused: { step: string; operation: string };
  submit: { step: string; attempt: number; output_hash: string; output_length: number };
  derived: { step: string; attempt: number; output_hash: string; output_length: number };
  /** `kind` tells a person's approval from a check; `produces` and `derive` are the output's shape checks. */
  gate: { step: string; attempt: number; gate: string; kind: GateKind; verdict: "pass" | "fail"; diagnosis_hash: string | null };
  retry: { step: string | null; operation: string; attempt: number; status: number | null; wait_ms: number };
  run_finished: { outcome: "finished"; outputs_hash: string };
  run_failed: { outcome: "failed"; error: string; step: string | null };
  run_abandoned: { outcome: "abandoned"; reason: "idle" | "session_closed" | "server_closed" };
}

export type RecordType = keyof RecordFields;

export type GateKind = "schema" | "predicate" | "http" | "approve" | "produces" | "derive";

/** Where a run's records go: the ledger layer adds run, seq, time and the hash chain. */
export interface LedgerWriter {
  append<T extends RecordType>(type: T, fields: RecordFields[T]): unknown;
  /**
   * Resolves once the run's closing record is durable (on disk, where the
   * ledger syncs). The engine awaits it before a reply says the run ended,
   * so a reply the client saw never names an end the ledger could lose.
   */
  durable?(): Promise<void>;
}
