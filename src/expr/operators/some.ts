// `some`: true when cond holds for at least one element; false when not an array.
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";
import { compileIteration } from "./iterate.js";

export const some: Operator = {
  compile(args, context) {
    const { list, body } = compileIteration(args, context);
    return function evaluateSome(data, root) {
      const items = list(data, root);
      if (!Array.isArray(items)) return false;
      for (const item of items) if (truthy(body(item, root))) return true;
      return false;
    };
  },
};
