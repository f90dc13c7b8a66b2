// `or`: the first truthy argument, else the last; stops evaluating at the first truthy one.
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";

export const or: Operator = {
  compile(args, context) {
    const parts = args.map((arg, i) => context.compile(arg, `[${i}]`));
    return function evaluateOr(data, root) {
      let value: unknown = null;
      for (const part of parts) {
        value = part(data, root);
        if (truthy(value)) return value;
      }
      return value;
    };
  },
};
