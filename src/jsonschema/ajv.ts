// Authors' JSON Schemas (inputs, produces, $defs, schema gates) are checked
// with ajv's 2020-12 dialect. One factory so loader and engine agree on
// options.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { formatNames } from "ajv-formats/dist/formats.js";
import { re2AjvRegExp } from "../expr/regex.js";
import { errorDetail } from "./error-detail.js";

// ajv-formats ships CommonJS whose default export TypeScript sees as a namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type Validator = ValidateFunction;

/** The formats every createAjv() instance knows: addFormats adds these names (its default list), Ajv none of its own. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(formatNames);

/**
 * `standaloneCode`: keep the source of what it compiles, for Ajv standalone code (build time only: scripts/build.ts).
 * `nativePatterns`: JavaScript RegExp instead of RE2, only for Stepgate's own fixed schemas (the meta-schema, whose two
 * patterns mean the same under both): compiling the first RE2 pattern in a process costs tens of ms of CPU.
 */
export function createAjv(options: { strict?: boolean; validateSchema?: boolean; standaloneCode?: boolean; nativePatterns?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: options.strict ?? false,
    validateSchema: options.validateSchema ?? true,
    validateFormats: true,
    // Authors' patterns run under RE2: linear time, so no output can stall a gate.
    code: { ...(options.nativePatterns ? {} : { regExp: re2AjvRegExp }), ...(options.standaloneCode ? { source: true, esm: true } : {}) },
  });
  addFormats(ajv);
  return ajv;
}

/**
 * One line per error, with the instance path, like `output.count must be
 * integer`; given the data validated, also what it held and what the schema
 * allows (`output.kind must be one of "a", "b"; got "c"`).
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, prefix = "output", data?: unknown): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === "" ? prefix : `${prefix}${e.instancePath.replaceAll("/", ".")}`;
    const extra = e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : "";
    return `${where} ${data === undefined ? (e.message ?? "is invalid") : errorDetail(e, data)}${extra}`;
  });
}
