// `filter`: [array, cond] -> elements for which cond is truthy; [] when not an array.
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";
import { compileIteration } from "./iterate.js";

export const filter: Operator = {
  compile(args, context) {
    const { list, body } = compileIteration(args, context);
    return function evaluateFilter(data, root) {
      const items = list(data, root);
      if (!Array.isArray(items)) return [];
      return items.filter((item) => truthy(body(item, root)));
    };
  },
};
