// `unique`: distinct elements by JSON equality, in first-seen order; null when not an array.
import { eager } from "../operator.js";
import { jsonKey } from "../json.js";

export function uniqueItems(items: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of items) {
    const key = jsonKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

export const unique = eager(([items]) => (Array.isArray(items) ? uniqueItems(items) : null));
