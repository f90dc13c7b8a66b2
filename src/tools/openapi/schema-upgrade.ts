// OpenAPI 3.0 schemas are a JSON Schema draft-04 dialect: `nullable: true`
// and boolean `exclusiveMinimum`/`exclusiveMaximum`. Tool input schemas are
// JSON Schema 2020-12, so schemas are rewritten into it once, after
// dereferencing, wherever the document holds a schema. 3.1 documents get the
// same treatment: the two keywords are common leftovers there, meaningless or
// invalid in 2020-12, and validators refuse a schema that has them.
import { isObject, type JsonObject } from "./json.js";
import { HTTP_METHODS } from "./http-methods.js";
import { forEachSubschema } from "../../jsonschema/schema-keywords.js";

/** Rewrites every schema of a dereferenced OpenAPI document in place. */
export function upgradeSchemas(document: JsonObject): void {
  const seen = new WeakSet<object>();
  const schema = (value: unknown): void => {
    if (isObject(value)) upgradeSchema(value, seen);
  };
  const media = (content: unknown): void => eachValue(content, (m) => schema(m.schema));
  const parameter = (p: JsonObject): void => {
    schema(p.schema);
    media(p.content);
  };
  const response = (r: JsonObject): void => {
    media(r.content);
    eachValue(r.headers, parameter);
  };
  const operation = (op: JsonObject): void => {
    eachItem(op.parameters, parameter);
    if (isObject(op.requestBody)) media(op.requestBody.content);
    eachValue(op.responses, response);
  };

  eachValue(document.paths, (item) => {
    eachItem(item.parameters, parameter);
    for (const method of HTTP_METHODS) if (isObject(item[method])) operation(item[method]);
  });
  const components = isObject(document.components) ? document.components : {};
  eachValue(components.schemas, schema);
  eachValue(components.parameters, parameter);
  eachValue(components.headers, parameter);
  eachValue(components.responses, response);
  eachValue(components.requestBodies, (b) => media(b.content));
}

function upgradeSchema(schema: JsonObject, seen: WeakSet<object>): void {
  // Dereferencing shares one object between every place that referred to it.
  if (seen.has(schema)) return;
  seen.add(schema);
  forEachSubschema(schema, (sub) => upgradeSchema(sub, seen));
  upgradeBound(schema, "exclusiveMinimum", "minimum");
  upgradeBound(schema, "exclusiveMaximum", "maximum");
  if (!("nullable" in schema)) return;
  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (nullable) allowNull(schema);
}

function upgradeBound(schema: JsonObject, exclusive: string, inclusive: string): void {
  if (typeof schema[exclusive] !== "boolean") return;
  if (schema[exclusive] === true && typeof schema[inclusive] === "number") {
    schema[exclusive] = schema[inclusive];
    delete schema[inclusive];
  } else {
    delete schema[exclusive];
  }
}

function allowNull(schema: JsonObject): void {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (typeof schema.type === "string") {
    schema.type = [schema.type, "null"];
    return;
  }
  if (Array.isArray(schema.type)) {
    if (!schema.type.includes("null")) schema.type = [...schema.type, "null"];
    return;
  }
  if (Array.isArray(schema.enum)) return;
  // No type to widen (a composition such as allOf): null becomes an alternative.
  const rest = { ...schema };
  for (const key of Object.keys(schema)) delete schema[key];
  schema.anyOf = [rest, { type: "null" }];
}

function eachValue(map: unknown, visit: (value: JsonObject) => void): void {
  if (isObject(map)) for (const value of Object.values(map)) if (isObject(value)) visit(value);
}

function eachItem(list: unknown, visit: (value: JsonObject) => void): void {
  if (Array.isArray(list)) for (const value of list) if (isObject(value)) visit(value);
}
