// Authors' JSON Schemas (inputs, produces, $defs, schema gates) are checked
// with ajv's 2020-12 dialect. One factory so loader and engine agree on
// options.
import { createRequire } from "node:module";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type addFormatsModule from "ajv-formats";
import { formatNames } from "ajv-formats/dist/formats.js";
import { re2AjvRegExp } from "../expr/regex.js";
import { errorDetail } from "./error-detail.js";

export type Validator = ValidateFunction;

/** The formats every createAjv() instance knows: addFormats adds these names (its default list), Ajv none of its own. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(formatNames);

/**
 * `standaloneCode`: keep the source of what it compiles, for Ajv standalone code (build time only: scripts/build.ts).
 * `nativePatterns`: JavaScript RegExp instead of RE2, only for Stepgate's own fixed schemas (the meta-schema, whose two
 * patterns mean the same under both): compiling the first RE2 pattern in a process costs tens of ms of CPU.
 */
export function createAjv(options: { strict?: boolean; validateSchema?: boolean; standaloneCode?: boolean; nativePatterns?: boolean } = {}): Ajv2020 {
  const { Ajv2020, addFormats } = ajvModules();
  const ajv = new Ajv2020({
    allErrors: true,
    strict: options.strict ?? false,
    validateSchema: options.validateSchema ?? true,
    validateFormats: true,
    // Nothing printed: an unknown format (ignored, as strict: false has it) is the unknown-format warning, placed in the file (src/loader/rules/unknown-format.ts).
    logger: false,
    // Authors' patterns run under RE2: linear time, so no output can stall a gate.
    code: { ...(options.nativePatterns ? {} : { regExp: re2AjvRegExp }), ...(options.standaloneCode ? { source: true, esm: true } : {}) },
  });
  addFormats(ajv);
  return ajv;
}

let loaded: { Ajv2020: typeof Ajv2020; addFormats: (ajv: Ajv2020) => Ajv2020 } | undefined;

/**
 * Ajv and ajv-formats, evaluated on the first createAjv() rather than at
 * import. Why: evaluating them was about 30 ms of every start (a fifth of a
 * launch with one stepfile), and a load makes no Ajv instance unless a
 * schema is not plain (author-schemas.ts): no catalog entry has one, so a
 * server usually makes its first instance after its first tools/list
 * answer. Both are CommonJS; in the bundle esbuild turns these `require`
 * calls into its lazy wrappers of the bundled copies (a free `require` is
 * what it rewrites), run from src/ Vitest gives modules a `require` and tsx
 * does not, hence the fallback.
 */
function ajvModules(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, see above */
  const ajv = (typeof require === "function" ? require("ajv/dist/2020.js") : createRequire(import.meta.url)("ajv/dist/2020.js")) as { Ajv2020: typeof Ajv2020 };
  // ajv-formats' CommonJS export is the function itself (TypeScript sees its default as a namespace).
  const formats = (typeof require === "function" ? require("ajv-formats") : createRequire(import.meta.url)("ajv-formats")) as { default: typeof addFormatsModule };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return (loaded = { Ajv2020: ajv.Ajv2020, addFormats: formats.default as unknown as (ajv: Ajv2020) => Ajv2020 });
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
