// `all`: true when cond holds for every element of a non-empty array; false for [] (as JSONLogic).
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";
import { compileIteration } from "./iterate.js";

export const all: Operator = {
  compile(args, context) {
    const { list, body } = compileIteration(args, context);
    return function evaluateAll(data, root) {
      const items = list(data, root);
      if (!Array.isArray(items) || items.length === 0) return false;
      for (const item of items) if (!truthy(body(item, root))) return false;
      return true;
    };
  },
};
