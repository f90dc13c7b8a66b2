// Shared by map, filter, reduce, all, some and none: the first argument is
// evaluated in the current scope, the second once per element with the
// element as the data `var` reads (the whole data stays reachable as root).
import type { CompileContext, Evaluate } from "../operator.js";

export interface Iteration {
  readonly list: Evaluate;
  readonly body: Evaluate;
}

export function compileIteration(args: readonly unknown[], context: CompileContext): Iteration {
  return { list: context.compile(args[0], "[0]"), body: context.compile(args[1], "[1]") };
}
