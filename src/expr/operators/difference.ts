// `difference`: [a, b] -> elements of a not in b (JSON equality), in order; null unless both are arrays.
import { eager } from "../operator.js";
import { jsonKey } from "../json.js";

export function differenceOf(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const other = new Set(b.map(jsonKey));
  return a.filter((item) => !other.has(jsonKey(item)));
}

export const difference = eager(([a, b]) => (Array.isArray(a) && Array.isArray(b) ? differenceOf(a, b) : null));
