// `join`: [left, right, path l, path r] -> each left item as { left, right },
// right being the first right item whose value at r equals (as JSON) the left
// item's value at l, else null. Absent values never match. Null unless both
// lists are arrays and both paths are paths.
import { eager } from "../operator.js";
import { jsonKey } from "../json.js";
import { pathSegments, readPath } from "../path.js";

export interface Pair {
  left: unknown;
  right: unknown;
}

export function joinItems(left: readonly unknown[], right: readonly unknown[], l: readonly string[], r: readonly string[]): Pair[] {
  const index = new Map<string, unknown>();
  for (const item of right) {
    const value = readPath(item, r);
    if (value === undefined) continue;
    const key = jsonKey(value);
    if (!index.has(key)) index.set(key, item);
  }
  return left.map((item) => {
    const value = readPath(item, l);
    const match = value === undefined ? undefined : index.get(jsonKey(value));
    return { left: item, right: match ?? null };
  });
}

export const join = eager(([left, right, l, r]) => {
  const leftPath = pathSegments(l);
  const rightPath = pathSegments(r);
  if (!Array.isArray(left) || !Array.isArray(right) || !leftPath || !rightPath) return null;
  return joinItems(left, right, leftPath, rightPath);
});
