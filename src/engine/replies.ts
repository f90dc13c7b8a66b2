// What a run answers, free of MCP: the MCP layer renders these as text and
// structuredContent.
import type { GateFailure, StepgateError } from "../errors.js";
import type { ApprovalRequest } from "./context.js";
import type { OperationView } from "./toolbox.js";

export interface StepView {
  step: string;
  instructions: string;
  operations: OperationView[];
  outputSchema: Record<string, unknown>;
  attempts: number;
  attemptsLeft: number;
}

export type Reply =
  | { kind: "step"; run: string; state: "running"; step: StepView; completed: string[] }
  | { kind: "retry"; run: string; state: "running"; step: string; failures: GateFailure[]; attemptsLeft: number }
  | { kind: "call"; run: string; state: "running"; operation: string; isError: boolean; text: string }
  | { kind: "finished"; run: string; state: "finished"; identity: string; outputs: Record<string, unknown>; completed: string[] }
  | { kind: "failed"; run: string; state: "failed" | "finished"; error: StepgateError }
  /**
   * A checked output waits in the run for a person (approver `between-calls`):
   * the transport asks `requests` and repeats the call with the answers for
   * `pending`, which names this wait so answers to an earlier one do not count.
   */
  | { kind: "approval"; run: string; state: "running"; step: string; pending: string; requests: ApprovalRequest[] }
  /** A call refused because a submission waits for a person; the run goes on. */
  | { kind: "waiting"; run: string; state: "running"; step: string; text: string };
