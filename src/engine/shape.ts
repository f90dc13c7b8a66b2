// Checking a submission's shape, in the order of format 5.3: refuse derived
// fields the client sent, check the schema the client was shown, evaluate
// `let`, add the derived fields, check the whole `produces`. Gates run only
// on an output that passed all of this.
import { describeErrors } from "../jsonschema/ajv.js";
import { asJson } from "../expr/index.js";
import type { CompiledStep } from "../loader/compile.js";
import type { GateVerdict } from "./gates.js";

export interface ShapeContext {
  inputs: unknown;
  steps: Record<string, unknown>;
  calls: unknown[];
}

export type ShapeResult = { output: unknown; lets: Record<string, unknown> } | { failure: GateVerdict };

/** `onDerived` hears the output once its derived fields are added (the `derived` ledger record). */
export function checkShape(step: CompiledStep, output: unknown, context: ShapeContext, onDerived: (full: Record<string, unknown>) => void): ShapeResult {
  const fail = (gate: string, diagnosis: string): ShapeResult => ({ failure: { gate, pass: false, diagnosis } });
  const submitted = output && typeof output === "object" && !Array.isArray(output) ? (output as Record<string, unknown>) : undefined;
  const sent = step.derive.map(([name]) => name).filter((name) => submitted && Object.hasOwn(submitted, name));
  if (sent.length > 0) return fail("derive", `${sent.join(", ")} ${sent.length === 1 ? "is" : "are"} computed by Stepgate; submit the output without ${sent.length === 1 ? "it" : "them"}`);
  if (!step.shown(output)) return fail("produces", describeErrors(step.shown.errors, "output", output).join("; "));
  const data = { ...context, output, let: {} as Record<string, unknown> };
  for (const [name, expr] of step.lets) data.let[name] = expr(data);
  if (step.derive.length === 0) return { output, lets: data.let };
  const full: Record<string, unknown> = { ...submitted };
  for (const [name, expr] of step.derive) full[name] = asJson(expr(data));
  onDerived(full);
  if (!step.produces(full)) return fail("produces", describeErrors(step.produces.errors, "output", full).join("; "));
  return { output: full, lets: data.let };
}
