// Two neighbours of a ranking swapped where they tie on the field the list
// is sorted by (after the rounding the instructions ask for): either order
// is a correct ranking, so a gate that refuses one ranks by something the
// agent was not given, or breaks ties the agent was not told about.
import type { Derived, MutationKind } from "../kind.js";

export const tieSwapped: MutationKind = {
  name: "tie-swapped",
  derive({ value, ordered, roundTo }) {
    if (!ordered || !Array.isArray(value) || value.length < 2) return [];
    const items = value as unknown[];
    if (!items.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) return [];
    const rows = items as Array<Record<string, unknown>>;
    const round = (n: number) => (roundTo === undefined ? n : Number(n.toFixed(roundTo)));
    const out: Derived[] = [];
    for (const key of sortKeys(rows)) {
      for (let i = 0; i + 1 < rows.length; i++) {
        if (round(rows[i]![key] as number) !== round(rows[i + 1]![key] as number)) continue;
        const next = [...rows];
        [next[i], next[i + 1]] = [rows[i + 1]!, rows[i]!];
        out.push({ value: next, change: `items [${i}] and [${i + 1}] swapped: they tie on ${key}`, equivalent: true });
        break;
      }
    }
    return out;
  },
};

/** Numeric fields every item has, in an order that never rises or never falls: what the list is likely sorted by. */
function sortKeys(rows: Array<Record<string, unknown>>): string[] {
  return Object.keys(rows[0]!).filter((key) => {
    const values = rows.map((r) => r[key]);
    if (!values.every((v) => typeof v === "number")) return false;
    const n = values as number[];
    const falls = n.every((v, i) => i === 0 || v <= n[i - 1]!);
    const rises = n.every((v, i) => i === 0 || v >= n[i - 1]!);
    return falls || rises;
  });
}
