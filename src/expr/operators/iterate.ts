// Shared by map, filter, all, some and none (and the first two arguments of
// reduce): the first argument is evaluated in the current scope, the second
// once per element with the element as the data `var` reads (the whole data
// stays reachable as root).
import type { CompileContext, Evaluate, Operator } from "../operator.js";

export interface Iteration {
  readonly list: Evaluate;
  readonly body: Evaluate;
}

export function compileIteration(args: readonly unknown[], context: CompileContext): Iteration {
  return { list: context.compile(args[0], "[0]"), body: context.compile(args[1], "[1]") };
}

/** An operator over [array, body]: `over` runs for arrays, `otherwise` gives the value for anything else. */
export function iteration(otherwise: () => unknown, over: (items: unknown[], body: Evaluate, root: unknown) => unknown): Operator {
  return {
    compile(args, context) {
      const { list, body } = compileIteration(args, context);
      return function evaluateIteration(data, root) {
        const items = list(data, root);
        return Array.isArray(items) ? over(items, body, root) : otherwise();
      };
    },
  };
}
