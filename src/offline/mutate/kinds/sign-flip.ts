// A number with its sign flipped: a debit for a credit, a loss for a gain.
import type { MutationKind } from "../kind.js";

export const signFlip: MutationKind = {
  name: "sign-flip",
  derive({ value }) {
    if (typeof value !== "number" || value === 0) return [];
    return [{ value: -value, change: `${value} -> ${-value}` }];
  },
};
