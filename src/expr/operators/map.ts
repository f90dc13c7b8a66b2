// `map`: [array, expr] -> expr of each element; [] when the first argument is not an array.
import type { Operator } from "../operator.js";
import { compileIteration } from "./iterate.js";

export const map: Operator = {
  compile(args, context) {
    const { list, body } = compileIteration(args, context);
    return function evaluateMap(data, root) {
      const items = list(data, root);
      if (!Array.isArray(items)) return [];
      const out = new Array<unknown>(items.length);
      for (let i = 0; i < items.length; i++) out[i] = body(items[i], root);
      return out;
    };
  },
};
