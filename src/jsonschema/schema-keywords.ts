// Which JSON Schema keywords hold subschemas. Walking only these (and not
// every nested object) keeps data such as `const`, `enum`, `default` and
// `examples` untouched even when it happens to contain `$ref` or `nullable`.
import { isObject, type JsonObject } from "../format/json-pointer.js";
import type { PathSegment } from "../format/source.js";

/** Keywords whose value is a map of name -> subschema. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/** Keywords whose value is a list of subschemas. */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** Keywords whose value is one subschema (`items` may also be a list, in older drafts). */
export const SCHEMA_SINGLE_KEYWORDS: ReadonlySet<string> = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);

/** Calls `visit` on every direct subschema of `schema` that is an object. */
export function forEachSubschema(schema: JsonObject, visit: (sub: JsonObject) => void): void {
  forEachSubschemaAt(schema, [], (sub) => visit(sub));
}

/** As forEachSubschema, giving each subschema's path: `at` and the keyword (with the name or index under it). */
export function forEachSubschemaAt(schema: JsonObject, at: readonly PathSegment[], visit: (sub: JsonObject, path: PathSegment[]) => void): void {
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) if (isObject(sub)) visit(sub, [...at, key, name]);
    } else if (SCHEMA_LIST_KEYWORDS.has(key) || (key === "items" && Array.isArray(value))) {
      if (Array.isArray(value)) value.forEach((sub, i) => isObject(sub) && visit(sub, [...at, key, i]));
    } else if (SCHEMA_SINGLE_KEYWORDS.has(key) && isObject(value)) {
      visit(value, [...at, key]);
    }
  }
}
