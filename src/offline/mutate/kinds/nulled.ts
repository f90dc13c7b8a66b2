// A value replaced by null: "unknown" where something was found.
import { shown, type MutationKind } from "../kind.js";

export const nulled: MutationKind = {
  name: "null",
  derive({ value }) {
    return value === null ? [] : [{ value: null, change: `${shown(value)} -> null` }];
  },
};
