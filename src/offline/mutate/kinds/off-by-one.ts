// A number one off: the fencepost, the rounding that went the wrong way.
import type { MutationKind } from "../kind.js";

export const offByOne: MutationKind = {
  name: "off-by-one",
  derive({ value }) {
    if (typeof value !== "number") return [];
    return [
      { value: value + 1, change: `${value} -> ${value + 1}` },
      { value: value - 1, change: `${value} -> ${value - 1}` },
    ];
  },
};
