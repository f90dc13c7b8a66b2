// Whether the order of an output's array says something. Reordering a list
// is a wrong output only where it does, and an equivalent elsewhere, so this
// reads what the step itself says: the array's schema (its description), a
// gate that reads an item by position, sorts it or speaks of order, or
// instructions that ask for a ranking and name the field.
import type { PathSegment } from "../../format/source.js";
import type { StepDef } from "../../format/types.js";

export const ORDER_WORDS = /\b(?:order(?:ed)?|sort(?:ed)?|rank(?:ed|ing|s)?|ascending|descending|chronological(?:ly)?|newest|oldest|top)\b/i;

export type OrderTest = (path: readonly PathSegment[], schema: Record<string, unknown>) => boolean;

export function orderTest(step: StepDef): OrderTest {
  const gates = (step.gates ?? []).map((g) => {
    const vars: string[] = [];
    let sorts = false;
    const walk = (node: unknown) => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "var") {
          const name = Array.isArray(value) ? value[0] : value;
          if (typeof name === "string") vars.push(name);
        }
        if (key === "sort_by") sorts = true;
        walk(value);
      }
    };
    walk([g.predicate, g.explain]);
    return { vars, sorts, speaksOfOrder: ORDER_WORDS.test(g.message ?? "") };
  });
  const instructions = step.instructions ?? "";
  const asksOrder = ORDER_WORDS.test(instructions);
  return (path, schema) => {
    if (ORDER_WORDS.test(`${String(schema.description ?? "")} ${String(schema.title ?? "")}`)) return true;
    const keys = path.filter((p): p is string => typeof p === "string");
    const name = `output${keys.map((k) => `.${k}`).join("")}`;
    const byIndex = new RegExp(`^${escape(name)}\\.\\d+(?:\\.|$)`);
    for (const g of gates) {
      const reads = g.vars.some((v) => v === name || v.startsWith(`${name}.`));
      if (g.vars.some((v) => byIndex.test(v))) return true;
      if (reads && (g.sorts || g.speaksOfOrder)) return true;
    }
    const last = keys[keys.length - 1];
    return asksOrder && last !== undefined && new RegExp(`\\b${escape(last)}\\b`).test(instructions);
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
