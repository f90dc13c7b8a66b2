// `subset`: [a, b] -> every element of a is in b (JSON equality); null unless both are arrays.
import { eager } from "../operator.js";
import { jsonKey } from "../json.js";

export function isSubset(a: readonly unknown[], b: readonly unknown[]): boolean {
  const other = new Set(b.map(jsonKey));
  return a.every((item) => other.has(jsonKey(item)));
}

export const subset = eager(([a, b]) => (Array.isArray(a) && Array.isArray(b) ? isSubset(a, b) : null));
