// A number times or divided by 10 or 100: units mixed up (dollars for
// cents, a percentage for a fraction), a decimal point in the wrong place.
import type { MutationKind } from "../kind.js";

export const scaled: MutationKind = {
  name: "scaled",
  derive({ value }) {
    if (typeof value !== "number" || value === 0) return [];
    const out: Array<{ value: number; change: string }> = [];
    for (const factor of [10, 100]) {
      out.push({ value: value * factor, change: `${value} -> ${value * factor} (times ${factor})` });
      out.push({ value: value / factor, change: `${value} -> ${value / factor} (divided by ${factor})` });
    }
    return out;
  },
};
