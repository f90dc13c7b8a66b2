// `none`: true when cond holds for no element (and when the first argument is not an array).
import type { Operator } from "../operator.js";
import { some } from "./some.js";

export const none: Operator = {
  compile(args, context) {
    const any = some.compile(args, context);
    return function evaluateNone(data, root) {
      return !any(data, root);
    };
  },
};
