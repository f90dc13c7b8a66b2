// JSON equality (deep, key-order-insensitive) through a canonical key string.
// Written here rather than with `canonicalize` (RFC 8785) because evaluated
// values can hold NaN, Infinity or a lone surrogate (from arithmetic or
// `substr`), which canonicalize refuses by throwing; equality must not throw.

/** A string that is equal for two values exactly when they are equal as JSON. */
export function jsonKey(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + jsonKey(value[i]);
        return `${out}]`;
      }
      return objectKey(value as Record<string, unknown>);
    default:
      // undefined, functions and symbols: JSON has no such values; treat as null
      // the way JSON.stringify does inside arrays.
      return "null";
  }
}

function objectKey(value: Record<string, unknown>): string {
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out += `${i > 0 ? "," : ""}${JSON.stringify(key)}:${jsonKey(value[key])}`;
  }
  return `${out}}`;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return jsonKey(a) === jsonKey(b);
}

/** Compact JSON for diagnoses; undefined shows as null. */
export function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/**
 * A computed value as JSON holds it: NaN and the infinities (from arithmetic
 * on text, or a division by zero) become null, and undefined members go, as
 * JSON.stringify reads them. Outputs Stepgate computes (a mechanical step's
 * output, derived fields) pass through this, so they can be hashed into the
 * ledger and checked against `produces` like any submitted output, where a
 * null in place of a number fails with a diagnosis instead of ending the
 * run with an internal error.
 */
export function asJson(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === undefined) return null;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => (item === undefined || typeof item === "function" ? null : asJson(item)));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined && typeof member !== "function") out[key] = asJson(member);
  return out;
}
