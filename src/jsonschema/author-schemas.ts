// Compiling authors' schemas (inputs, produces, $defs, schema gates) so that
// loading scales with the number of schemas, not with Ajv's compile cost.
//
// Compiling one schema costs about 100 times what checking it against the
// meta-schema does, and a fresh Ajv instance per stepfile costs more again.
// Checking needs the meta-schema compiled, which costs more than a dozen
// author schemas: the bundle has it generated at build time
// (meta-schema-check.ts). A *plain* schema (see below) is checked at load
// against it (the very check, and message, that `ajv.compile` starts with)
// and compiled on first use, once per distinct content, in one shared
// instance that does not check it again (so a server that has not run a
// gate yet has made no Ajv instance at all). Every other schema is compiled
// at load as before, in an Ajv instance of the stepfile's own (so ids
// cannot collide across stepfiles) that skips the meta-schema check it has
// just passed; one that fails it is compiled by a full instance of its own,
// which throws exactly what it always threw.
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { checkRegex } from "../expr/regex.js";
import { createAjv, KNOWN_FORMATS } from "./ajv.js";
import checkMetaSchema from "./meta-schema-check.js";

/**
 * Keys that make `ajv.compile` able to fail after the meta-schema check
 * passed ($ref resolution, duplicate ids or anchors, another dialect) or
 * tie the schema to one Ajv instance (ids).
 */
const compileTimeKeys = new Set(["$ref", "$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$schema"]);

/** A `$ref` to one of the root's `$defs` by a name that needs no escaping in a JSON Pointer or a URI fragment. */
const LOCAL_DEF_REF = /^#\/\$defs\/([A-Za-z0-9_-]+)$/;

/**
 * Whether `ajv.compile` cannot fail, nor print, once the meta-schema check
 * passed: no key of compileTimeKeys anywhere but a `$ref` to a name the
 * root's `$defs` has (every `$ref` in the schema, those in `$defs`
 * included, then resolves, and with no `$id` anywhere nothing ties the
 * schema to one instance), every `pattern` and `patternProperties` key
 * compiles under RE2 (with the flag ajv uses), and every `format` is one
 * Ajv knows (an unknown one is ignored when compiled, and the unknown-format
 * warning). It looks
 * at every key, not only keyword positions, so it errs towards compiling at
 * load.
 */
function isPlain(value: unknown, defs: object): boolean {
  if (Array.isArray(value)) return value.every((item) => isPlain(item, defs));
  if (typeof value !== "object" || value === null) return true;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$ref" && typeof inner === "string" && Object.hasOwn(defs, LOCAL_DEF_REF.exec(inner)?.[1] ?? "\u0000")) continue;
    if (compileTimeKeys.has(key)) return false;
    if (key === "pattern" && typeof inner === "string" && !re2Compiles(inner)) return false;
    if (key === "patternProperties" && typeof inner === "object" && inner !== null && !Object.keys(inner).every(re2Compiles)) return false;
    if (key === "format" && typeof inner === "string" && !KNOWN_FORMATS.has(inner)) return false;
    if (!isPlain(inner, defs)) return false;
  }
  return true;
}

/** The schema's own `$defs`, when it is an object: what a local `$ref` resolves in. */
function rootDefs(schema: object): object {
  const defs = (schema as { $defs?: unknown }).$defs;
  return typeof defs === "object" && defs !== null && !Array.isArray(defs) ? defs : {};
}

function re2Compiles(pattern: string): boolean {
  try {
    checkRegex(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

let shared: Ajv2020 | undefined;
/**
 * Validators of plain schemas by their JSON text, shared by every stepfile in
 * the process. The text itself is the key: a Map hashes a string once, and a
 * SHA-256 of it (with a crypto object per schema) cost more than that on a
 * first launch, where every schema is new.
 */
const plain = new Map<string, ValidateFunction>();

/**
 * A compile function for one stepfile's schemas: throws what `ajv.compile`
 * would throw for an invalid schema, at load; returns a validator.
 */
export function authorSchemaCompiler(options: { checked?: boolean } = {}): (schema: object) => ValidateFunction {
  let own: Ajv2020 | undefined;
  const compileNow = (schema: object): ValidateFunction => {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema) || !isPlain(schema, rootDefs(schema))) {
      if (!passesMetaSchema(schema)) return createAjv().compile(schema);
      own ??= createAjv({ validateSchema: false });
      return own.compile(schema);
    }
    const key = JSON.stringify(schema);
    const known = plain.get(key);
    if (known) return known;
    // What `validateSchema(schema, true)` throws; a plain schema has no $schema, so the default meta-schema applies.
    if (!checkMetaSchema(schema)) throw new Error(`schema is invalid: ${sharedAjv().errorsText(checkMetaSchema.errors)}`);
    const validator = lazyValidator(schema, () => sharedAjv().compile(schema));
    plain.set(key, validator);
    return validator;
  };
  // A schema known to compile (options.checked) goes the same way on the validator's first call.
  return options.checked ? (schema) => lazyValidator(schema, () => compileNow(schema)) : compileNow;
}

/** Compiles schemas that passed the meta-schema check already; validateSchema() on it still checks one with its own $schema. */
function sharedAjv(): Ajv2020 {
  return (shared ??= createAjv({ validateSchema: false }));
}

function passesMetaSchema(schema: unknown): boolean {
  if (typeof schema === "object" && schema !== null && (schema as { $schema?: unknown }).$schema === undefined) return checkMetaSchema(schema) as boolean;
  try {
    return sharedAjv().validateSchema(schema as object) as boolean;
  } catch {
    // An unknown $schema and the like: the full compile reports it.
    return false;
  }
}

/** A validator that compiles its schema with `compile` on its first call; `.errors` as Ajv sets them. */
function lazyValidator(schema: object, compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.errors = null;
  validate.schema = schema;
  return validate;
}
