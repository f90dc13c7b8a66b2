// What the kinds share about values.
import type { Place } from "../kind.js";

export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** An array item's place: swaps and replacements of it are replace-item's. */
export function isItem(place: Place): boolean {
  return typeof place.path[place.path.length - 1] === "number";
}

/**
 * A string that names or quotes something (an id, a status, a value copied
 * from the evidence, a string its schema gives an enum or format) rather than free prose:
 * its case or a trailing character changes what it says.
 */
export function isToken(place: Place): place is Place & { value: string } {
  const { value, schema } = place;
  if (typeof value !== "string" || value === "") return false;
  const s = schema.schema;
  return !/\s/.test(value) || place.evidence.seen(value) || s.enum !== undefined || s.const !== undefined || s.format !== undefined;
}
