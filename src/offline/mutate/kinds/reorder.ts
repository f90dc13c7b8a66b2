// The items in another order: wrong where order says something (a ranking,
// a sequence), an equivalent elsewhere (a set written as a list).
import { jsonEqual } from "../../../expr/index.js";
import type { MutationKind } from "../kind.js";

export const reorder: MutationKind = {
  name: "reorder",
  derive({ value, ordered }) {
    if (!Array.isArray(value) || value.length < 2) return [];
    const reversed = [...value].reverse();
    if (jsonEqual(reversed, value)) return [];
    return [{ value: reversed, change: "items in reverse order", ...(ordered ? {} : { equivalent: true as const }) }];
  },
};
