// `results`: [operation, path?] -> the values at path (whole results without
// one) of every call to that operation that was not an error, flattened one
// level. It reads `calls` from the root of the data, so it works the same
// inside map/filter/reduce.
import type { Evaluate, Operator } from "../operator.js";
import { own, pathSegments, readPath } from "../path.js";

export const results: Operator = {
  compile(args, context) {
    const [operation, path] = args;
    if (typeof operation !== "string" || operation === "") return context.fail("the first argument must be a literal operation name");
    if (args.length > 2) return context.fail("takes an operation name and at most one path");
    const fixed = args.length < 2 ? [] : typeof path === "object" && path !== null ? undefined : pathSegments(path);
    const dynamic: Evaluate | undefined = fixed ? undefined : context.compile(path, "[1]");
    return function evaluateResults(data, root) {
      const segments = fixed ?? pathSegments(dynamic!(data, root));
      return segments ? collect(own(root, "calls"), operation, segments) : null;
    };
  },
};

/** The values `results` gives, from a `calls` list. */
export function collect(calls: unknown, operation: string, segments: readonly string[]): unknown[] {
  const out: unknown[] = [];
  if (!Array.isArray(calls)) return out;
  for (const call of calls) {
    if (own(call, "tool") !== operation || own(call, "is_error") === true) continue;
    const value = readPath(own(call, "result"), segments);
    // A result without the path contributes nothing rather than a null:
    // "values at path" of calls that have none.
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) out.push(item);
    else out.push(value);
  }
  return out;
}
