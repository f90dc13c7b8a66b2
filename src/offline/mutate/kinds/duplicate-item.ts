// An item listed twice: a count gate passes it when another is missing too.
import { shown, type MutationKind } from "../kind.js";

export const duplicateItem: MutationKind = {
  name: "duplicate-item",
  derive({ value, path }) {
    if (!Array.isArray(value) || value.length === 0) return [];
    return [{ value: [...value, structuredClone(value[0])], change: `item [0] ${shown(value[0])} listed twice`, at: [...path, 0] }];
  },
};
