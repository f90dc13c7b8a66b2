// A token in another case: `paid` for `PAID`, an id lower-cased.
import { shown, type MutationKind } from "../kind.js";
import { isToken } from "./scalar.js";

export const caseChanged: MutationKind = {
  name: "case-changed",
  derive(place) {
    if (!isToken(place)) return [];
    const { value } = place;
    const upper = value.toUpperCase();
    const other = upper !== value ? upper : value.toLowerCase();
    return other === value ? [] : [{ value: other, change: `${shown(value)} -> ${shown(other)}` }];
  },
};
