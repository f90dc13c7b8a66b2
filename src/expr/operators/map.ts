// `map`: [array, expr] -> expr of each element; [] when the first argument is not an array.
import { iteration } from "./iterate.js";

export const map = iteration(
  () => [],
  (items, body, root) => items.map((item) => body(item, root)),
);
