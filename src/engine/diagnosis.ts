// The text a failed predicate gate sends back: its message, plus what
// `explain` yields.
import type { CompiledGate } from "../loader/compile.js";

const EXPLAIN_LIMIT = 2000;

export function diagnosePredicate(gate: Extract<CompiledGate, { kind: "predicate" }>, data: Record<string, unknown>): string {
  if (!gate.explain) return gate.message;
  let extra: string;
  try {
    extra = explainText(gate.explain(data));
  } catch {
    // An explanation that cannot be computed must not hide the gate's message.
    return gate.message;
  }
  return extra === "" ? gate.message : `${gate.message} ${extra}`;
}

function explainText(value: unknown): string {
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > EXPLAIN_LIMIT ? text.slice(0, EXPLAIN_LIMIT) : text;
}
