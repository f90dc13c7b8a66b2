// `{{inputs.<path>}}` and `{{steps.<id>.<path>}}` in agent instructions, or
// a whole value without a path (`{{inputs}}`, `{{steps.<id>}}`), as format
// section 5.1 allows. Parsed once at load; filled when a step starts.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export interface Placeholder {
  /** The text between the braces, trimmed. */
  expression: string;
  root: "inputs" | "steps";
  /** Path segments after the root (for steps, the first is the step id); empty for the whole `{{inputs}}`. */
  path: string[];
}

export function findPlaceholders(text: string): Array<Placeholder | { expression: string; problem: string }> {
  return [...text.matchAll(PLACEHOLDER)].map((m) => {
    const expression = m[1]!;
    const [root, ...path] = expression.split(".");
    if (root !== "inputs" && root !== "steps") {
      return { expression, problem: `placeholder {{${expression}}} must be {{inputs...}} or {{steps.<id>...}}` };
    }
    if (root === "steps" && path.length === 0) {
      return { expression, problem: `placeholder {{steps}} must name a step: {{steps.<id>}} or {{steps.<id>.<path>}}` };
    }
    if (path.some((p) => p === "")) {
      return { expression, problem: `placeholder {{${expression}}} has an empty path segment` };
    }
    return { expression, root, path };
  });
}

export function isPlaceholder(p: Placeholder | { problem: string }): p is Placeholder {
  return !("problem" in p);
}

const MISSING = Symbol("missing");

/**
 * Fill every placeholder: strings as they are, other values as indented JSON.
 * Returns the name of the first placeholder without a value instead.
 */
export function fillPlaceholders(text: string, data: { inputs: unknown; steps: unknown }): { text: string } | { missing: string } {
  let missing: string | undefined;
  const filled = text.replace(PLACEHOLDER, (whole, expression: string) => {
    const [root, ...path] = expression.split(".");
    const value = root === "inputs" || root === "steps" ? walk(data[root], path) : MISSING;
    if (value === MISSING || value === undefined) {
      missing ??= expression;
      return whole;
    }
    return typeof value === "string" ? value : JSON.stringify(value, null, 2);
  });
  return missing === undefined ? { text: filled } : { missing };
}

function walk(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return MISSING;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
