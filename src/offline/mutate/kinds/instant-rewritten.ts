// The same instant written another way RFC 3339 allows: `Z` or `+00:00`,
// with or without `.000`. A correct agent may write either; a gate that
// compares instants as strings refuses one.
import { parseTimestamp } from "../../../expr/time.js";
import { shown, type Derived, type MutationKind } from "../kind.js";

const ZONE = /(?:[Zz]|[+-]00:00)$/;
const ZERO_FRACTION = /\.0+(?=[Zz]|[+-]\d{2}:\d{2}$)/;

export const instantRewritten: MutationKind = {
  name: "instant-rewritten",
  derive({ value }) {
    if (typeof value !== "string" || parseTimestamp(value) === null) return [];
    const out: Derived[] = [];
    const add = (text: string) => {
      if (text !== value) out.push({ value: text, change: `${shown(value)} -> ${shown(text)}, the same instant`, equivalent: true });
    };
    // Only UTC is rewritten: another offset is the same instant too, but rarely what anyone writes.
    if (ZONE.test(value)) add(value.replace(ZONE, /[Zz]$/.test(value) ? "+00:00" : "Z"));
    if (ZERO_FRACTION.test(value)) add(value.replace(ZERO_FRACTION, ""));
    else if (!/\.\d+/.test(value)) add(value.replace(/(\d{2}:\d{2}:\d{2})/, "$1.000"));
    return out;
  },
};
