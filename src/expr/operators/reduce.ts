// `reduce`: [array, expr over { current, accumulator }, initial]; the initial
// value (default null) when the first argument is not an array.
import type { Operator } from "../operator.js";
import { compileIteration } from "./iterate.js";

export const reduce: Operator = {
  compile(args, context) {
    const { list, body } = compileIteration(args, context);
    const initial = context.compile(args[2], "[2]");
    return function evaluateReduce(data, root) {
      let accumulator = initial(data, root);
      const items = list(data, root);
      if (!Array.isArray(items)) return accumulator;
      for (const current of items) accumulator = body({ current, accumulator }, root);
      return accumulator;
    };
  },
};
