// A token with a trailing space: copied with the space after it.
import { shown, type MutationKind } from "../kind.js";
import { isToken } from "./scalar.js";

export const trailingSpace: MutationKind = {
  name: "trailing-space",
  derive(place) {
    if (!isToken(place)) return [];
    return [{ value: `${place.value} `, change: `${shown(place.value)} -> ${shown(`${place.value} `)}` }];
  },
};
