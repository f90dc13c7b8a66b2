// The check of an author's schema against the JSON Schema 2020-12
// meta-schema: what `ajv.validateSchema` runs for a schema without a
// `$schema` of its own, compiled with the same options (createAjv).
// Compiling the meta-schema costs about 70 ms of CPU, once per process, on
// the first stepfile with a schema; so the bundle (scripts/build.ts) swaps
// this module for the same validator generated at build time as Ajv
// standalone code, and a starting server does not compile it at all.
// Its two patterns ($id without a fragment, anchor names) run as JavaScript
// RegExp, which for them means what RE2 does, so starting does not pay for
// RE2's first compile either (test/cli/bundled-meta-schema.test.ts holds it
// to what the RE2 instance answers).
import { createAjv } from "./ajv.js";

const ajv = createAjv({ nativePatterns: true });
const checkMetaSchema = ajv.getSchema(ajv.defaultMeta() as string)!;
export default checkMetaSchema;
