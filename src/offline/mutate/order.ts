// Whether the order of an output's array says something. Reordering a list
// is a wrong output only where it does, and an equivalent elsewhere, so this
// reads what the step itself says: the array's schema (its description), a
// gate that reads an item by position, sorts it or speaks of order, or
// instructions that ask for a ranking and name the field; and what the
// items say: a field numbering them 1, 2, 3 (or 0, 1, 2) in order.
import type { PathSegment } from "../../format/source.js";
import type { StepDef } from "../../format/types.js";

export const ORDER_WORDS = /\b(?:order(?:ed)?|sort(?:ed)?|rank(?:ed|ing|s)?|ascending|descending|chronological(?:ly)?|newest|oldest|top|numbered|sequence)\b/i;

export type OrderTest = (path: readonly PathSegment[], schema: Record<string, unknown>, items: readonly unknown[]) => boolean;

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
    return { vars, sorts, message: g.message ?? "" };
  });
  const instructions = step.instructions ?? "";
  return (path, schema, items) => {
    if (numbered(items)) return true;
    if (ORDER_WORDS.test(`${String(schema.description ?? "")} ${String(schema.title ?? "")}`)) return true;
    const keys = path.filter((p): p is string => typeof p === "string");
    const name = `output${keys.map((k) => `.${k}`).join("")}`;
    const byIndex = new RegExp(`^${escape(name)}\\.\\d+(?:\\.|$)`);
    const last = keys[keys.length - 1];
    for (const g of gates) {
      const reads = g.vars.some((v) => v === name || v.startsWith(`${name}.`));
      if (g.vars.some((v) => byIndex.test(v))) return true;
      if (reads && (g.sorts || (last !== undefined && speaksOfOrder(g.message, last)))) return true;
    }
    return last !== undefined && speaksOfOrder(instructions, last);
  };
}

/** Objects with a field counting 1, 2, 3... (or from 0), as a number or a numeric string: a sequence. */
function numbered(items: readonly unknown[]): boolean {
  if (items.length < 2 || !items.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) return false;
  const rows = items as Array<Record<string, unknown>>;
  return Object.keys(rows[0]!).some((key) => {
    const n = rows.map((r) => (typeof r[key] === "string" && /^\d+$/.test(r[key]) ? Number(r[key]) : r[key]));
    return n.every((v, i) => v === i + 1) || n.every((v, i) => v === i);
  });
}

/** Whether `text` speaks of order within a few words of `field`, in the same sentence ("rank the counties", "steps in order"). */
function speaksOfOrder(text: string, field: string): boolean {
  // Words in between, within one sentence: no full stop, colon or semicolon crossed.
  const gap = "[^\\w.!?;:]+";
  const near = `${gap}(?:[\\w-]+${gap}){0,2}`;
  const order = ORDER_WORDS.source;
  return new RegExp(`\\b${escape(field)}${near}${order}|${order}${near}${escape(field)}\\b`, "i").test(text);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
