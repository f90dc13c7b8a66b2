// `missing`: the paths (given as arguments, or as one array) whose value is null, absent or "".
import { eager, type Operator } from "../operator.js";
import { pathSegments, readPath } from "../path.js";

export function missingPaths(data: unknown, paths: readonly unknown[]): unknown[] {
  const missing: unknown[] = [];
  for (const path of paths) {
    const segments = pathSegments(path);
    const value = segments ? readPath(data, segments) : undefined;
    if (value === undefined || value === null || value === "") missing.push(path);
  }
  return missing;
}

export const missing: Operator = {
  compile(args, context) {
    const list = eager((values) => values).compile(args, context);
    return function evaluateMissing(data, root) {
      const values = list(data, root) as unknown[];
      return missingPaths(data, Array.isArray(values[0]) ? values[0] : values);
    };
  },
};
