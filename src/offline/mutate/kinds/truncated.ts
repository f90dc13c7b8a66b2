// A string cut short: half a quote, an id missing its tail, notes that stop.
import { shown, type MutationKind } from "../kind.js";

export const truncated: MutationKind = {
  name: "truncated",
  derive({ value }) {
    if (typeof value !== "string") return [];
    const chars = [...value];
    if (chars.length < 2) return [];
    const cut = chars.slice(0, Math.floor(chars.length / 2)).join("");
    return [{ value: cut, change: `${shown(value)} -> ${shown(cut)}` }];
  },
};
