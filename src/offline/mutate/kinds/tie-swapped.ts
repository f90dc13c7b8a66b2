// Two neighbours of a ranking swapped where they tie on the field the list
// is sorted by (after the rounding the instructions ask for): either order
// is a correct ranking, so a gate that refuses one ranks by something the
// agent was not given, or breaks ties the agent was not told about. A
// ranking of ids (`ranking: [A, B]`) is read through the output's objects
// those ids name (`counties: [{ code: A, share: 0.205 }, ...]`).
import type { Derived, MutationKind } from "../kind.js";

type Row = Record<string, unknown>;

export const tieSwapped: MutationKind = {
  name: "tie-swapped",
  derive({ value, ordered, roundTo, output }) {
    if (!ordered || !Array.isArray(value) || value.length < 2) return [];
    const rows = isRows(value) ? value : namedRows(value, output);
    if (!rows) return [];
    const round = (n: number) => (roundTo === undefined ? n : Number(n.toFixed(roundTo)));
    const out: Derived[] = [];
    for (const key of sortKeys(rows)) {
      for (let i = 0; i + 1 < rows.length; i++) {
        if (round(rows[i]![key] as number) !== round(rows[i + 1]![key] as number)) continue;
        const next = [...(value as unknown[])];
        [next[i], next[i + 1]] = [value[i + 1], value[i]];
        out.push({ value: next, change: `items [${i}] and [${i + 1}] swapped: they tie on ${key}`, equivalent: true });
        break;
      }
    }
    return out;
  },
};

function isRows(items: readonly unknown[]): items is Row[] {
  return items.every((v) => v !== null && typeof v === "object" && !Array.isArray(v));
}

/** For a list of ids, the objects elsewhere in the output they name, in the list's order; undefined when they name none. */
function namedRows(items: readonly unknown[], output: unknown): Row[] | undefined {
  if (!items.every((v) => typeof v === "string" || typeof v === "number")) return undefined;
  for (const list of objectLists(output, 0)) {
    for (const key of Object.keys(list[0]!)) {
      const rows = items.map((item) => list.find((r) => r[key] === item));
      if (rows.every((r) => r !== undefined)) return rows as Row[];
    }
  }
  return undefined;
}

function objectLists(node: unknown, depth: number): Row[][] {
  if (depth > 6 || node === null || typeof node !== "object") return [];
  const children = Array.isArray(node) ? node : Object.values(node);
  const here = Array.isArray(node) && node.length > 0 && isRows(node) ? [node] : [];
  return [...here, ...children.flatMap((c) => objectLists(c, depth + 1))];
}

/** Numeric fields every item has, in an order that never rises or never falls: what the list is likely sorted by. */
function sortKeys(rows: Row[]): string[] {
  return Object.keys(rows[0]!).filter((key) => {
    const values = rows.map((r) => r[key]);
    if (!values.every((v) => typeof v === "number")) return false;
    const n = values as number[];
    const falls = n.every((v, i) => i === 0 || v <= n[i - 1]!);
    const rises = n.every((v, i) => i === 0 || v >= n[i - 1]!);
    return falls || rises;
  });
}
