// `in`: [a, b] -> a is an element of array b (strict equality), or a substring of string b.
import { eager } from "../operator.js";

export const inside = eager(([a, b]) => {
  if (Array.isArray(b)) return b.includes(a);
  if (typeof b === "string") return b.includes(String(a));
  return false;
});
