// A value swapped for another value of the same field in the evidence:
// another customer's email, the other account's balance.
import { shown, type MutationKind } from "../kind.js";
import { isItem } from "./scalar.js";

export const swapped: MutationKind = {
  name: "swapped",
  derive(place) {
    const { value, field, evidence, random } = place;
    if ((typeof value !== "string" && typeof value !== "number") || isItem(place)) return [];
    const other = random.pick(evidence.othersOf(value, field));
    return other === undefined ? [] : [{ value: other, change: `${shown(value)} -> ${shown(other)}, another value of that field in the evidence` }];
  },
};
