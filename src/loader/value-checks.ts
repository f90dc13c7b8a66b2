// What an operation's input schema rules out of one value written in a
// mechanical call's arguments: a literal's type, enum or const, bounds,
// lengths, pattern and item count; and, for a value computed at run time,
// whether the type it is declared with can match at all. The schema is
// walked directly (no validator compiled at load); anything this walk does
// not read (`anyOf`, `oneOf`, `not`, formats) rules nothing out, which only
// means fewer warnings. Patterns are tried under RE2, so a document's pattern
// cannot make loading slow; one RE2 refuses is not judged.
import { compileRegex } from "../expr/regex.js";
import { isObject } from "../format/json-pointer.js";
import type { LocatedSchema } from "./response-schemas.js";
import { resolved } from "./schema-views.js";

type Schema = Record<string, unknown>;

/** What is wrong with a value, and what to write instead. */
export interface Problem {
  problem: string;
  fix: string;
}

/** The schema with its `$ref`s followed and its `allOf` branches beside it, each a schema that must hold. */
export function holding(c: LocatedSchema, depth = 0): Schema[] {
  const schema = resolved(c);
  if (!schema || depth > 8) return [];
  const out = [schema];
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) out.push(...holding({ schema: branch, root: c.root }, depth + 1));
  return out;
}

/** The JSON types the schema allows; undefined when it does not say. */
export function allowedTypes(c: LocatedSchema): string[] | undefined {
  for (const schema of holding(c)) {
    const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as unknown[]).filter((t) => typeof t === "string") : undefined;
    if (types) return schema.nullable === true ? [...types, "null"] : types;
  }
  return undefined;
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether a value of type `actual` may be one of `allowed` (an integer is a number; a number may be integral). */
export function typeFits(actual: string, allowed: readonly string[]): boolean {
  if (allowed.includes(actual)) return true;
  return (actual === "integer" && allowed.includes("number")) || (actual === "number" && allowed.includes("integer"));
}

/** The first thing the schema rules out of a literal value (a scalar, or an array of literals), or undefined. */
export function literalProblem(value: unknown, c: LocatedSchema): Problem | undefined {
  const types = allowedTypes(c);
  const actual = jsonType(value);
  if (types && !types.includes(actual) && !(actual === "integer" && types.includes("number"))) {
    return { problem: `is ${article(actual)}, but the schema takes ${types.join(" or ")}`, fix: `write ${types.map(article).join(" or ")}` };
  }
  for (const schema of holding(c)) {
    const found = ownProblem(value, schema, c.root);
    if (found) return found;
  }
  return undefined;
}

function ownProblem(value: unknown, schema: Schema, root: unknown): Problem | undefined {
  if ("const" in schema && !same(value, schema.const)) return { problem: `is not the documented value`, fix: `write ${JSON.stringify(schema.const)}` };
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(value, e))) {
    const list = schema.enum.slice(0, 12).map((e) => JSON.stringify(e)).join(", ") + (schema.enum.length > 12 ? ", ..." : "");
    return { problem: "is not one of the documented values", fix: `write one of ${list}` };
  }
  if (typeof value === "number") return numberProblem(value, schema);
  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof schema.maxLength === "number" && length > schema.maxLength) return { problem: `is ${length} characters long, over the documented maxLength of ${schema.maxLength}`, fix: `write at most ${schema.maxLength} characters` };
    if (typeof schema.minLength === "number" && length < schema.minLength) return { problem: `is ${length} characters long, under the documented minLength of ${schema.minLength}`, fix: `write at least ${schema.minLength} characters` };
    if (typeof schema.pattern === "string" && !matches(schema.pattern, value)) return { problem: `does not match the documented pattern ${schema.pattern}`, fix: "write a value that matches it" };
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) return { problem: `has ${value.length} items, over the documented maxItems of ${schema.maxItems}`, fix: `give at most ${schema.maxItems}` };
    if (typeof schema.minItems === "number" && value.length < schema.minItems) return { problem: `has ${value.length} items, under the documented minItems of ${schema.minItems}`, fix: `give at least ${schema.minItems}` };
    if (isObject(schema.items)) {
      for (const item of value) {
        const found = literalProblem(item, { schema: schema.items, root });
        if (found) return { problem: `has an item ${JSON.stringify(item)} that ${found.problem}`, fix: found.fix };
      }
    }
  }
  return undefined;
}

function numberProblem(value: number, schema: Schema): Problem | undefined {
  // OpenAPI 3.0 spells an exclusive bound as a boolean beside minimum/maximum.
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : schema.exclusiveMaximum === true ? max : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : schema.exclusiveMinimum === true ? min : undefined;
  if (exclusiveMax !== undefined && value >= exclusiveMax) return { problem: `is not below the documented exclusive maximum of ${exclusiveMax}`, fix: `write less than ${exclusiveMax}` };
  if (max !== undefined && value > max) return { problem: `is over the documented maximum of ${max}`, fix: `write at most ${max}` };
  if (exclusiveMin !== undefined && value <= exclusiveMin) return { problem: `is not above the documented exclusive minimum of ${exclusiveMin}`, fix: `write more than ${exclusiveMin}` };
  if (min !== undefined && value < min) return { problem: `is under the documented minimum of ${min}`, fix: `write at least ${min}` };
  return undefined;
}

function matches(pattern: string, value: string): boolean {
  try {
    return compileRegex(pattern).test(value);
  } catch {
    return true; // a pattern RE2 cannot read is not judged here
  }
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b));
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A short account of what a schema documents, for messages: "integer, at most 100". */
export function summary(c: LocatedSchema): string {
  const types = allowedTypes(c);
  const parts = [types ? types.filter((t) => t !== "null").join(" or ") : "", ...limits(c)];
  return parts.filter(Boolean).join(", ") || "any value";
}

/** What a schema documents beyond its type: the values it allows, bounds, lengths, pattern, item counts. */
function limits(c: LocatedSchema): string[] {
  const parts: string[] = [];
  for (const schema of holding(c)) {
    if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.slice(0, 6).map((e) => JSON.stringify(e)).join(", ")}${schema.enum.length > 6 ? ", ..." : ""}`);
    if ("const" in schema) parts.push(`exactly ${JSON.stringify(schema.const)}`);
    if (typeof schema.minimum === "number") parts.push(`at least ${schema.minimum}`);
    if (typeof schema.exclusiveMinimum === "number") parts.push(`more than ${schema.exclusiveMinimum}`);
    if (typeof schema.maximum === "number") parts.push(`at most ${schema.maximum}`);
    if (typeof schema.exclusiveMaximum === "number") parts.push(`less than ${schema.exclusiveMaximum}`);
    if (typeof schema.minLength === "number") parts.push(`at least ${schema.minLength} characters`);
    if (typeof schema.maxLength === "number") parts.push(`at most ${schema.maxLength} characters`);
    if (typeof schema.pattern === "string") parts.push(`matching ${schema.pattern}`);
    if (typeof schema.minItems === "number") parts.push(`at least ${schema.minItems} items`);
    if (typeof schema.maxItems === "number") parts.push(`at most ${schema.maxItems} items`);
  }
  return parts;
}

/**
 * An operation's documented limits, one line per argument (and request body
 * field) that has any, and what is required: shown beside the input schema
 * where the agent reads an operation it may call, so a maximum of 100 is
 * read before the call rather than learnt from its refusal.
 * @example argumentLimits(inputSchema) // ["per_page: integer, at least 1, at most 100", "required: body, body.member"]
 */
export function argumentLimits(inputSchema: unknown): string[] {
  const lines: string[] = [];
  const required: string[] = [];
  const walk = (c: LocatedSchema, prefix: string, depth: number) => {
    const parts = holding(c);
    for (const part of parts) for (const name of Array.isArray(part.required) ? part.required : []) if (typeof name === "string") required.push(`${prefix}${name}`);
    for (const part of parts) {
      if (!isObject(part.properties)) continue;
      for (const [name, schema] of Object.entries(part.properties)) {
        const member = { schema, root: c.root };
        if (limits(member).length > 0) lines.push(`${prefix}${name}: ${summary(member)}`);
        // The request body's fields, one level down: where a required field is most often missed.
        if (depth === 0 && name === "body") walk(member, "body.", 1);
      }
    }
  };
  walk({ schema: inputSchema, root: inputSchema }, "", 0);
  if (required.length > 0) lines.push(`required: ${required.join(", ")}`);
  return lines;
}
