// A number rounded as the step's instructions ask ("rounded to 2 decimal
// places"): what a correct agent writes when the recorded output kept more
// digits.
import type { MutationKind } from "../kind.js";

export const rounded: MutationKind = {
  name: "rounded",
  derive({ value, roundTo }) {
    if (typeof value !== "number" || roundTo === undefined) return [];
    const r = Number(value.toFixed(roundTo));
    return r === value ? [] : [{ value: r, change: `${value} -> ${r}, rounded to ${roundTo} places as the instructions ask`, equivalent: true }];
  },
};
