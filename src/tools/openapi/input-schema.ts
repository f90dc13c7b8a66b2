// Assembles an operation's input schema: one property per parameter the
// client supplies, plus `body`. Names are the parameters' own, so calls read
// naturally (`{ id: "K-1" }`). When one name would mean two things (a query
// `id` and a header `id`, or a parameter called `body` beside a request
// body) every parameter sharing it is exposed as `<in>.<name>`
// (`query.id`, `header.id`, `query.body`) and `body` stays the request body.
import { ApiDocumentInvalid } from "../../errors.js";
import type { JsonObject } from "./json.js";
import { argumentNames, onlyValue, type DeclaredParam } from "../../format/openapi-parameters.js";
import type { ChosenBody } from "../../format/openapi-request-body.js";
import { SchemaExporter } from "./schema-export.js";
import type { JsonSchema, ParamSpec } from "./types.js";

export interface InputParts {
  inputSchema: JsonObject;
  /** What arguments are checked against: `inputSchema` plus the one-value parameters, each fixed to its value. */
  argumentSchema: JsonObject;
  params: ParamSpec[];
}

export function buildInputSchema(
  exporter: SchemaExporter,
  declared: DeclaredParam[],
  body: ChosenBody | undefined,
  operationId: string,
): InputParts {
  const names = argumentNames(declared, body !== undefined);
  const properties: JsonObject = {};
  const required: string[] = [];
  const params: ParamSpec[] = [];
  for (const [i, p] of declared.entries()) {
    const fixed = onlyValue(p.schema);
    const argument = names[i]!;
    const schema = withDescription(exporter.schema(p.schema), p.description) as JsonSchema;
    params.push({
      name: p.name,
      in: p.in,
      argument,
      required: p.required,
      schema,
      style: p.style,
      explode: p.explode,
      ...(fixed ? { fixed } : {}),
      ...(p.contentType ? { contentType: p.contentType } : {}),
    });
    if (fixed) continue;
    if (Object.hasOwn(properties, argument) || (body && argument === "body")) {
      throw new ApiDocumentInvalid(`operation ${operationId}: two inputs would both be called ${argument}`, { operation: operationId, argument });
    }
    properties[argument] = schema;
    if (p.required) required.push(argument);
  }
  if (body) {
    properties.body = withDescription(exporter.schema(body.schema), body.description);
    if (body.required) required.push("body");
  }
  const inputSchema: JsonObject = {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    // An argument that is no parameter would otherwise be dropped silently.
    additionalProperties: false,
  };
  if (Object.keys(exporter.defs).length > 0) inputSchema.$defs = exporter.defs;
  return { inputSchema, argumentSchema: withFixed(inputSchema, params), params };
}

/**
 * A one-value parameter is hidden from the client and always sent with its
 * value, but a caller that names it anyway with that same value is not
 * wrong (format section 2), so arguments may carry it, fixed to the value;
 * any other value is refused, naming the parameter. A name another input
 * already carries keeps that input's meaning.
 */
function withFixed(inputSchema: JsonObject, params: ParamSpec[]): JsonObject {
  const properties = { ...(inputSchema.properties as JsonObject) };
  let added = false;
  for (const p of params) {
    if (!p.fixed || Object.hasOwn(properties, p.argument)) continue;
    properties[p.argument] = { const: p.fixed.value };
    added = true;
  }
  return added ? { ...inputSchema, properties } : inputSchema;
}

/** Adds the parameter's description to its schema, where the agent reads it. */
function withDescription(schema: unknown, description: string | undefined): unknown {
  if (description === undefined || typeof schema !== "object" || schema === null) return schema;
  const object = schema as JsonObject;
  return typeof object.description === "string" ? object : { ...object, description };
}
