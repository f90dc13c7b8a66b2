// What a validator's error leaves out, put back: the value that was given
// and what the schema allows. ajv's own message for an enum reads "must be
// equal to one of the allowed values" and names none of them, and no
// message says what was given, so a model (or a person reading an error
// that ended a run) cannot tell what to send instead. ajv keeps the allowed
// values, types and bounds in each error's `params`; the value is read back
// from the validated data at the error's `instancePath` (ajv's `verbose`
// option would keep it too, but for every error of every validator).
import type { ErrorObject } from "ajv";
import { capText } from "../quote.js";

/** Most allowed values an enum's message lists before "...". */
const LISTED_VALUES = 20;

/** ajv's message with the allowed values spelled out and, where it helps, the value that was given. */
export function errorDetail(e: ErrorObject, data: unknown): string {
  const p = e.params as Record<string, unknown>;
  const given = valueAt(data, e.instancePath);
  const got = givenText(e, data);
  switch (e.keyword) {
    case "enum": {
      const values = Array.isArray(p.allowedValues) ? (p.allowedValues as unknown[]) : [];
      const listed = values.slice(0, LISTED_VALUES).map(shown).join(", ");
      return `must be one of ${listed}${values.length > LISTED_VALUES ? ", ..." : ""}${got}`;
    }
    case "const":
      return `must be ${shown(p.allowedValue)}${got}`;
    case "type":
      return `${e.message ?? `must be ${String(p.type)}`}${given.found ? `; got ${shown(given.value)}${given.value === null ? "" : ` (${typeName(given.value)})`}` : ""}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "multipleOf":
    case "format":
    case "pattern":
      return `${e.message ?? "is invalid"}${got}`;
    case "minLength":
    case "maxLength":
      return `${e.message ?? "is invalid"}${typeof given.value === "string" ? `; got ${[...given.value].length} (${shown(given.value)})` : got}`;
    case "minItems":
    case "maxItems":
      return `${e.message ?? "is invalid"}${Array.isArray(given.value) ? `; got ${given.value.length}` : ""}`;
    default:
      return e.message ?? "is invalid";
  }
}

/** "; got <the value>" for the value an error is about, or "" when the data does not hold it. */
export function givenText(e: ErrorObject, data: unknown): string {
  const given = valueAt(data, e.instancePath);
  return given.found ? `; got ${shown(given.value)}` : "";
}

/** The value at a JSON Pointer (ajv's instancePath) of `data`, when it is there. */
function valueAt(data: unknown, pointer: string): { found: boolean; value?: unknown } {
  let value = data;
  if (pointer === "") return { found: true, value };
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return { found: false };
    value = (value as Record<string, unknown>)[key];
  }
  return { found: true, value };
}

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  return capText(JSON.stringify(value) ?? String(value), 80);
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (Number.isInteger(value)) return "an integer";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
