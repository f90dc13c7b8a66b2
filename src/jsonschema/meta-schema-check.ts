// The check of an author's schema against the JSON Schema 2020-12
// meta-schema: what `ajv.validateSchema` runs for a schema without a
// `$schema` of its own, compiled with the same options (createAjv).
// Compiling the meta-schema costs about 70 ms of CPU, once per process, on
// the first stepfile with a schema; so the bundle (scripts/build.ts) swaps
// this module for the same validator generated at build time as Ajv
// standalone code, and a starting server does not compile it at all.
import { createAjv } from "./ajv.js";

const ajv = createAjv();
const checkMetaSchema = ajv.getSchema(ajv.defaultMeta() as string)!;
export default checkMetaSchema;
