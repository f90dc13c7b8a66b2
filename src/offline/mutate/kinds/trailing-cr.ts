// A token with a trailing carriage return: what a CRLF file's line keeps
// when it is split on "\n".
import { shown, type MutationKind } from "../kind.js";
import { isToken } from "./scalar.js";

export const trailingCr: MutationKind = {
  name: "trailing-cr",
  derive(place) {
    if (!isToken(place)) return [];
    return [{ value: `${place.value}\r`, change: `${shown(place.value)} -> ${shown(`${place.value}\r`)}` }];
  },
};
