// `var`: read the current data by dotted path, with an optional default.
// Only own properties are read, so `{ var: "constructor" }` is null, not a function.
import type { Evaluate, Operator } from "../operator.js";
import { pathSegments, readPath } from "../path.js";

export const variable: Operator = {
  compile(args, context) {
    const fallback: Evaluate = args.length > 1 ? context.compile(args[1], "[1]") : () => null;
    const fixed = isLiteral(args[0]) ? pathSegments(args[0]) : undefined;
    const dynamic = fixed ? undefined : context.compile(args[0], "[0]");
    return function evaluateVar(data, root) {
      const segments = fixed ?? pathSegments(dynamic!(data, root));
      const found = segments ? readPath(data, segments) : undefined;
      return found === undefined ? fallback(data, root) : found;
    };
  },
};

function isLiteral(path: unknown): boolean {
  return path === undefined || path === null || typeof path === "string" || typeof path === "number";
}
