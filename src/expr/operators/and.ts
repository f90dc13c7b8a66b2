// `and`: the first falsy argument, else the last; stops evaluating at the first falsy one.
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";

export const and: Operator = {
  compile(args, context) {
    const parts = args.map((arg, i) => context.compile(arg, `[${i}]`));
    return function evaluateAnd(data, root) {
      let value: unknown = null;
      for (const part of parts) {
        value = part(data, root);
        if (!truthy(value)) return value;
      }
      return value;
    };
  },
};
