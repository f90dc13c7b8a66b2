// The SARIF 2.1.0 JSON Schema (test/fixtures/sarif/, from OASIS's
// oasis-tcs/sarif-spec) compiled once, for the tests that validate what
// `stepgate --check --format sarif` writes.
import { readFileSync } from "node:fs";
import AjvDraft04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";

const schema = JSON.parse(readFileSync(new URL("../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as object;
// Both packages ship CommonJS whose default export TypeScript sees as a namespace (as src/jsonschema/ajv.ts says of ajv-formats).
const AjvDraft04 = AjvDraft04Module as unknown as typeof AjvDraft04Module.default;
export const sarifAjv = new AjvDraft04({ allErrors: true, strict: false });
(addFormatsModule as unknown as (a: typeof sarifAjv) => typeof sarifAjv)(sarifAjv);
export const validSarif = sarifAjv.compile(schema);
