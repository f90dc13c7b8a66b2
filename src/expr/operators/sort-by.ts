// `sort_by`: [array, path, "asc" | "desc"] -> a new array ordered by the value
// at path in each item. Stable; numbers as numbers, strings by code point
// (not UTF-16 unit), null and absent values last in both directions. Mixed
// types order numbers < strings < booleans < arrays < objects. The direction
// defaults to asc; anything else (or a non-array) gives null.
import { eager } from "../operator.js";
import { pathSegments, readPath } from "../path.js";

export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

function rank(value: unknown): number {
  if (typeof value === "number") return Number.isNaN(value) ? 5 : 0;
  if (typeof value === "string") return 1;
  if (typeof value === "boolean") return 2;
  if (Array.isArray(value)) return 3;
  if (typeof value === "object" && value !== null) return 4;
  return 5;
}

function compareValues(a: unknown, b: unknown): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (typeof a === "number") return a - (b as number);
  if (typeof a === "string") return compareCodePoints(a, b as string);
  if (typeof a === "boolean") return Number(a) - Number(b);
  return 0;
}

export function sortItems(items: readonly unknown[], segments: readonly string[], descending: boolean): unknown[] {
  const keyed = items.map((item) => ({ item, key: readPath(item, segments) }));
  keyed.sort((x, y) => {
    const absentX = rank(x.key) === 5;
    const absentY = rank(y.key) === 5;
    if (absentX || absentY) return Number(absentX) - Number(absentY);
    const order = compareValues(x.key, y.key);
    return descending ? -order : order;
  });
  return keyed.map((entry) => entry.item);
}

export const sortBy = eager(([items, path, direction]) => {
  const segments = pathSegments(path);
  if (!Array.isArray(items) || !segments) return null;
  if (direction !== undefined && direction !== null && direction !== "asc" && direction !== "desc") return null;
  return sortItems(items, segments, direction === "desc");
});
