// `if`: [cond, then, cond, then, ..., else]; only the chosen branch is evaluated.
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";

export const ifThenElse: Operator = {
  compile(args, context) {
    const parts = args.map((arg, i) => context.compile(arg, `[${i}]`));
    return function evaluateIf(data, root) {
      let i = 0;
      for (; i < parts.length - 1; i += 2) {
        if (truthy(parts[i]!(data, root))) return parts[i + 1]!(data, root);
      }
      return i === parts.length - 1 ? parts[i]!(data, root) : null;
    };
  },
};
