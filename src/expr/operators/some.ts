// `some`: true when cond holds for at least one element; false when not an array.
import { truthy } from "../truthy.js";
import { iteration } from "./iterate.js";

export const some = iteration(
  () => false,
  (items, body, root) => items.some((item) => truthy(body(item, root))),
);
