// Before a person is asked to approve an output, the mechanical calls that
// follow it are computed where their arguments depend only on data the run
// already holds (the inputs, this output, earlier steps), and checked
// against their operations' schemas. A person must never approve a write
// the operation would refuse: the approval would be spent, and the run
// would fail with CallArgumentsInvalid right after it. A call whose
// arguments read a response, or a step not run yet, cannot be known before
// then and is left to its turn; so is a step whose `when` cannot be told.
import { templateReads } from "../expr/reads.js";
import type { CompiledCall, CompiledStep } from "../loader/compile.js";
import type { CallDef } from "../format/types.js";

export interface RefusedCall {
  step: string;
  /** `<call id> (<operation>)`, as CallArgumentsInvalid names a call. */
  call: string;
  problems: string;
}

export interface PreApprovalData {
  inputs: unknown;
  /** Every step's output so far, the one waiting for approval included. */
  steps: Record<string, unknown>;
}

/**
 * The first later mechanical call whose arguments are known now and refused
 * by its operation's schema; undefined when none is (or none can be told).
 */
export function refusedLaterCall(steps: readonly CompiledStep[], current: number, data: PreApprovalData, checkArguments: (operation: string, args: unknown) => string[]): RefusedCall | undefined {
  // Steps up to this one have their outputs (or were skipped: then they read as missing, as they will).
  const settled = new Set(steps.slice(0, current + 1).map((s) => s.def.id));
  for (const step of steps.slice(current + 1)) {
    if (!step.mechanical) continue;
    if (step.when) {
      if (!knownNow(step.def.when, settled, false)) continue;
      if (attempt(() => step.when!({ inputs: data.inputs, steps: data.steps })) !== true) continue;
    }
    for (const [i, call] of step.calls.entries()) {
      const refused = refusedCall(step, call, step.def.do!.calls![i]!, settled, data, checkArguments);
      if (refused) return refused;
    }
  }
  return undefined;
}

function refusedCall(step: CompiledStep, call: CompiledCall, def: CallDef, settled: ReadonlySet<string>, data: PreApprovalData, checkArguments: (operation: string, args: unknown) => string[]): RefusedCall | undefined {
  const top = { inputs: data.inputs, steps: data.steps, responses: {} };
  const label = `${call.id} (${call.operation})`;
  const refuse = (problems: string): RefusedCall => ({ step: step.def.id, call: label, problems });
  let items: unknown[] | undefined;
  if (call.each) {
    if (!knownNow(def.each, settled, false)) return undefined;
    const value = attempt(() => call.each!(top));
    if (value === FAILED) return undefined;
    if (!Array.isArray(value)) return undefined; // refused at its turn, with the same words as ever
    items = value;
  }
  if (!knownNow(def.arguments ?? {}, settled, call.each !== undefined)) return undefined;
  for (const item of items ?? [undefined]) {
    const args = attempt(() => call.arguments(items ? { ...top, item } : top));
    if (args === FAILED || args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
    const problems = checkArguments(call.operation, args);
    if (problems.length > 0) return refuse(problems.join("; "));
  }
  return undefined;
}

/** Whether every path a template reads is held now: inputs, a settled step, or (in an each call's arguments) item. */
function knownNow(template: unknown, settled: ReadonlySet<string>, withItem: boolean): boolean {
  const reads = templateReads(template);
  if (!reads) return false;
  return reads.every(([head, id]) => head === "inputs" || (head === "steps" && id !== undefined && settled.has(id)) || (withItem && head === "item"));
}

const FAILED: unique symbol = Symbol("failed");

/** An expression that throws now would throw at its turn too, where the run reports it: not this check's to report. */
function attempt<T>(work: () => T): T | typeof FAILED {
  try {
    return work();
  } catch {
    return FAILED;
  }
}
