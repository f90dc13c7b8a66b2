// A boolean the other way round.
import type { MutationKind } from "../kind.js";

export const flipped: MutationKind = {
  name: "flipped",
  derive({ value }) {
    return typeof value === "boolean" ? [{ value: !value, change: `${value} -> ${!value}` }] : [];
  },
};
