// `+`: the sum of the arguments read as numbers with parseFloat ("3.5" -> 3.5);
// one argument casts it to a number; none gives 0.
import { eager } from "../operator.js";

export const add = eager((values) => {
  let sum = 0;
  for (const value of values) sum += parseFloat(String(value));
  return sum;
});
