// Which JSON Schema keywords hold subschemas. Walking only these (and not
// every nested object) keeps data such as `const`, `enum`, `default` and
// `examples` untouched even when it happens to contain `$ref` or `nullable`.
import { isObject, type JsonObject } from "./json.js";

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
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      for (const sub of Object.values(value)) if (isObject(sub)) visit(sub);
    } else if (SCHEMA_LIST_KEYWORDS.has(key) || (key === "items" && Array.isArray(value))) {
      if (Array.isArray(value)) for (const sub of value) if (isObject(sub)) visit(sub);
    } else if (SCHEMA_SINGLE_KEYWORDS.has(key) && isObject(value)) {
      visit(value);
    }
  }
}
