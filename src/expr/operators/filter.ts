// `filter`: [array, cond] -> elements for which cond is truthy; [] when not an array.
import { truthy } from "../truthy.js";
import { iteration } from "./iterate.js";

export const filter = iteration(
  () => [],
  (items, body, root) => items.filter((item) => truthy(body(item, root))),
);
