// A token in another case: `paid` for `PAID`, an id lower-cased. Not an
// RFC 3339 time, where `t` and `z` are the same as `T` and `Z`.
import { parseTimestamp } from "../../../expr/time.js";
import { shown, type MutationKind } from "../kind.js";
import { isToken } from "./scalar.js";

export const caseChanged: MutationKind = {
  name: "case-changed",
  derive(place) {
    if (!isToken(place) || parseTimestamp(place.value) !== null) return [];
    const { value } = place;
    const upper = value.toUpperCase();
    const other = upper !== value ? upper : value.toLowerCase();
    return other === value ? [] : [{ value: other, change: `${shown(value)} -> ${shown(other)}` }];
  },
};
