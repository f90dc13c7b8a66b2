// Reading data by dotted path, own properties only: a rule must never reach
// `constructor`, `__proto__` or other inherited members (a function or the
// prototype would leak into results and comparisons).

/** The own member `key` of an object, array or string; undefined when absent. */
export function own(container: unknown, key: string): unknown {
  if (container === null || container === undefined) return undefined;
  if (typeof container !== "object" && typeof container !== "string") return undefined;
  if (!Object.hasOwn(container as object, key)) return undefined;
  return (container as Record<string, unknown>)[key];
}

export function splitPath(path: string): readonly string[] {
  return path === "" ? [] : path.split(".");
}

/** The value at `segments` under `value`; undefined when any step is absent. */
export function readPath(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    current = own(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/** Paths may be given as strings (`a.b.0`) or numbers (an index); anything else is no path. */
export function pathSegments(path: unknown): readonly string[] | undefined {
  if (path === null || path === undefined || path === "") return [];
  if (typeof path === "string") return splitPath(path);
  if (typeof path === "number") return splitPath(String(path));
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
