// `all`: true when cond holds for every element of a non-empty array; false for [] (as JSONLogic).
import { truthy } from "../truthy.js";
import { iteration } from "./iterate.js";

export const all = iteration(
  () => false,
  (items, body, root) => items.length > 0 && items.every((item) => truthy(body(item, root))),
);
