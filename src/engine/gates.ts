// Checking one submission: `produces` (and `derive`) first, then every gate.
// Approval is asked for only after every other gate has passed, so nobody
// approves a submission the checks would reject.
import type { GateFailure } from "../errors.js";
import { describeErrors } from "../jsonschema/ajv.js";
import type { CompiledGate, CompiledStep } from "../loader/compile.js";
import type { ApprovalAnswer, Approver } from "./context.js";
import type { VerifierVerdict } from "./toolbox.js";

export interface GateVerdict {
  gate: string;
  pass: boolean;
  diagnosis: string;
}

export interface GateData {
  inputs: unknown;
  steps: Record<string, unknown>;
  output: unknown;
  calls: unknown[];
  let: Record<string, unknown>;
}

export interface GateServices {
  verify(tool: string, gate: string, data: GateData): Promise<VerifierVerdict>;
  approver?: Approver;
}

export type ApproveGate = Extract<CompiledGate, { kind: "approve" }>;

/** Every gate's verdict, in file order, with approvals last. */
export async function runGates(step: CompiledStep, data: GateData, services: GateServices): Promise<GateVerdict[]> {
  const { verdicts, approvals } = await runChecks(step, data, services);
  return [...verdicts, ...(await askApprovals(step, data, approvals, services))];
}

/** The approvals' verdicts, asking the person within the call (or declining when nobody can be asked). */
export async function askApprovals(step: CompiledStep, data: GateData, approvals: readonly ApproveGate[], services: GateServices): Promise<GateVerdict[]> {
  const verdicts: GateVerdict[] = [];
  for (const gate of approvals) {
    const answer =
      services.approver?.kind === "ask"
        ? await services.approver.approve({ step: step.def.id, gate: gate.id, message: gate.message, output: data.output })
        : { approved: false as const, reason: "no person can be asked: the client does not support elicitation" };
    verdicts.push(approvalVerdict(gate, answer));
  }
  return verdicts;
}

/**
 * The verdicts of every gate but the approvals, in file order, and the
 * approvals to ask: none unless every other gate passed. Split from
 * runGates so a run can keep these verdicts while a person is asked
 * between calls, and add the approvals' verdicts when the answers come.
 */
export async function runChecks(step: CompiledStep, data: GateData, services: GateServices): Promise<{ verdicts: GateVerdict[]; approvals: ApproveGate[] }> {
  const verdicts: GateVerdict[] = [];
  const approvals: ApproveGate[] = [];
  for (const gate of step.gates) {
    if (gate.kind === "approve") approvals.push(gate);
    else verdicts.push(await runGate(gate, data, services));
  }
  return { verdicts, approvals: verdicts.every((v) => v.pass) ? approvals : [] };
}

export function approvalVerdict(gate: ApproveGate, answer: ApprovalAnswer): GateVerdict {
  return { gate: gate.id, pass: answer.approved, diagnosis: answer.approved ? "" : `declined: ${answer.reason}` };
}

async function runGate(gate: Exclude<CompiledGate, { kind: "approve" }>, data: GateData, services: GateServices): Promise<GateVerdict> {
  switch (gate.kind) {
    case "schema": {
      const pass = gate.validate(data.output) === true;
      return { gate: gate.id, pass, diagnosis: pass ? "" : describeErrors(gate.validate.errors, "output", data.output).join("; ") };
    }
    case "predicate": {
      const input = data as unknown as Record<string, unknown>;
      let pass: boolean;
      try {
        pass = gate.check.test(input);
        return { gate: gate.id, pass, diagnosis: pass ? "" : gate.check.diagnose(input) };
      } catch (error) {
        // An expression that cannot be evaluated over this output blocks, as any gate does.
        return { gate: gate.id, pass: false, diagnosis: `the check could not be evaluated: ${describeThrown(error)}` };
      }
    }
    case "http": {
      const verdict = await services.verify(gate.tool, gate.id, data);
      return { gate: gate.id, pass: verdict.pass, diagnosis: verdict.pass ? "" : (verdict.message ?? "the verifier refused the output") };
    }
  }
}

export function failuresOf(verdicts: GateVerdict[]): GateFailure[] {
  return verdicts.filter((v) => !v.pass).map((v) => ({ gate: v.gate, diagnosis: v.diagnosis }));
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object") return JSON.stringify(error);
  return String(error);
}
