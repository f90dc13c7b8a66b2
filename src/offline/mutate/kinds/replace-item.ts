// An item swapped for another value of the same field from the evidence:
// an unpaid invoice's id where paid ids are asked for. A count passes it;
// only a check of which items they are refuses it.
import { shown, type MutationKind } from "../kind.js";
import { isScalar } from "./scalar.js";

export const replaceItem: MutationKind = {
  name: "replace-item",
  derive({ value, path, field, evidence, random }) {
    if (!Array.isArray(value) || value.length === 0) return [];
    const listed = new Set(value.map((v) => JSON.stringify(v)));
    const out = [];
    for (const i of random.shuffle(value.map((_, j) => j)).slice(0, 2)) {
      const item = value[i];
      if (!isScalar(item)) continue;
      const other = random.pick(evidence.othersOf(item, field).filter((v) => !listed.has(JSON.stringify(v))));
      if (other === undefined) continue;
      const next = [...value];
      next[i] = other;
      out.push({ value: next, change: `item [${i}] ${shown(item)} -> ${shown(other)}, another value of that field in the evidence`, at: [...path, i] });
    }
    return out;
  },
};
