// Another of the values the schema's enum allows: a valid-looking status
// that is the wrong one.
import { jsonEqual } from "../../../expr/index.js";
import { shown, type MutationKind } from "../kind.js";

export const otherEnum: MutationKind = {
  name: "other-enum",
  derive({ value, schema }) {
    const values = schema.schema.enum;
    if (!Array.isArray(values)) return [];
    return values.filter((v) => !jsonEqual(v, value)).map((v) => ({ value: v, change: `${shown(value)} -> ${shown(v)}` }));
  },
};
