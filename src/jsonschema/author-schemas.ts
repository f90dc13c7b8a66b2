// Compiling authors' schemas (inputs, produces, $defs, schema gates) so that
// loading scales with the number of schemas, not with Ajv's compile cost.
//
// Compiling one schema costs about 100 times what checking it against the
// meta-schema does, and a fresh Ajv instance per stepfile costs more again.
// So a *plain* schema (see below) is checked at load with the meta-schema of
// one process-wide Ajv instance (the very check, and message, that
// `ajv.compile` starts with) and compiled on first use, once per distinct
// content. Everything else is compiled at load exactly as before, in an Ajv
// instance of the stepfile's own, so its errors and isolation are unchanged.
import { createHash } from "node:crypto";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { createAjv } from "./ajv.js";

/**
 * Words that make `ajv.compile` able to fail after the meta-schema check
 * passed ($ref resolution, duplicate ids or anchors, patterns that RE2
 * refuses), or print at compile time (unknown formats), or tie the schema to
 * one Ajv instance (ids). A schema whose JSON text holds none of them
 * anywhere (keys or values, so the test errs towards compiling at load)
 * cannot fail to compile once its meta-schema check passed.
 */
const compileTimeWords = /"\$(?:ref|dynamicRef|recursiveRef|id|anchor|dynamicAnchor|recursiveAnchor|schema)"|"pattern|"format"/;

let shared: Ajv2020 | undefined;
/** Validators of plain schemas by content hash, shared by every stepfile in the process. */
const plain = new Map<string, ValidateFunction>();

/**
 * A compile function for one stepfile's schemas: throws what `ajv.compile`
 * would throw for an invalid schema, at load; returns a validator.
 */
export function authorSchemaCompiler(): (schema: object) => ValidateFunction {
  let own: Ajv2020 | undefined;
  return (schema) => {
    const text = JSON.stringify(schema);
    if (typeof schema !== "object" || schema === null || Array.isArray(schema) || compileTimeWords.test(text)) {
      own ??= createAjv();
      return own.compile(schema);
    }
    const key = createHash("sha256").update(text).digest("base64");
    const known = plain.get(key);
    if (known) return known;
    shared ??= createAjv();
    shared.validateSchema(schema, true);
    const validator = lazyValidator(shared, schema);
    plain.set(key, validator);
    return validator;
  };
}

/** A validator that compiles its schema on its first call; `.errors` as Ajv sets them. */
function lazyValidator(ajv: Ajv2020, schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.errors = null;
  validate.schema = schema;
  return validate;
}
