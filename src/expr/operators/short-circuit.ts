// Shared by and/or: evaluate arguments in order and stop at the first one
// whose truthiness is `stopWhen`, giving it; otherwise give the last (null for none).
import type { Operator } from "../operator.js";
import { truthy } from "../truthy.js";

export function shortCircuit(stopWhen: boolean): Operator {
  return {
    compile(args, context) {
      const parts = args.map((arg, i) => context.compile(arg, `[${i}]`));
      return function evaluateShortCircuit(data, root) {
        let value: unknown = null;
        for (const part of parts) {
          value = part(data, root);
          if (truthy(value) === stopWhen) return value;
        }
        return value;
      };
    },
  };
}
