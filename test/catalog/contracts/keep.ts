// Writes a provider's description.json: the operations the catalog calls,
// taken from the provider's published description, with only the facts the
// contract check reads (paths, operation ids, parameters, request and
// response schemas, and every schema they reference) and none of the
// provider's prose (descriptions, summaries, examples, tags, x- extensions).
// A Swagger 2.0 description or a Google API discovery document is converted
// to OpenAPI 3's shape on the way, mechanically:
// - Swagger 2.0: a `body` parameter becomes requestBody application/json, a
//   `formData` one a property of an application/x-www-form-urlencoded body,
//   the other parameters' type keywords move into `schema`, each response's
//   `schema` goes under content application/json, `definitions` become
//   components.schemas, and `basePath` is put before each path;
// - discovery: each method becomes the operation at `servicePath` +
//   `flatPath` (or `path`) with its `id` as operationId, each parameter's
//   `location` becomes `in`, `request`/`response` references become the
//   JSON body and the 200 response, and `schemas` become components.schemas;
// - a .proto file with google.api.http options: see from-proto.ts;
// - a WADL of a service's parameters: see from-wadl.ts.
// Run once per provider; source.json records where the input came from:
//   node --import tsx test/catalog/contracts/keep.ts <swagger2|openapi3|discovery|proto|wadl> <description.json> <source file>... "get /path" ...
// (several source files when the provider publishes one per API; each
// operation is taken from the one that has it).
// Hand-written: no library both converts these formats and prunes a
// description to a few operations with their references.
import { readFileSync, writeFileSync } from "node:fs";
import { load as loadYaml } from "js-yaml";
import { isObject, mediaKind, resolvePointer, type JsonObject } from "../../../src/format/json-pointer.js";
import { fromProto } from "./from-proto.js";
import { fromWadl } from "./from-wadl.js";

type Format = "swagger2" | "openapi3" | "discovery" | "proto" | "wadl";

// Keys that hold prose or tooling hints, never a fact the check compares.
const PROSE = new Set(["description", "summary", "example", "examples", "externalDocs", "tags", "title", "x-example", "xml"]);
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf"];
const SCHEMA_ONE = ["items", "additionalProperties", "not"];

/** A schema without prose; `properties` keys are field names, kept as they are. */
function cleanSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PROSE.has(key) || key.startsWith("x-")) continue;
    if (key === "properties" && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([n, s]) => [n, cleanSchema(s)]));
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(cleanSchema);
    else if (SCHEMA_ONE.includes(key)) out[key] = cleanSchema(value);
    else out[key] = value;
  }
  return out;
}

/** A reference alone: what stands beside a `$ref` in OpenAPI 3.0 is ignored. */
const onlyRef = (v: JsonObject): JsonObject => ({ $ref: v.$ref });

function cleanParameter(p: unknown): unknown {
  if (!isObject(p)) return p;
  if (typeof p.$ref === "string") return onlyRef(p);
  const out: JsonObject = {};
  for (const key of ["name", "in", "required", "style", "explode"]) if (p[key] !== undefined) out[key] = p[key];
  if (p.schema !== undefined) out.schema = cleanSchema(p.schema);
  return out;
}

function cleanContent(content: unknown): unknown {
  if (!isObject(content)) return content;
  return Object.fromEntries(Object.entries(content).map(([type, media]) => [type, isObject(media) && media.schema !== undefined ? { schema: cleanSchema(media.schema) } : {}]));
}

function cleanBody(body: unknown): unknown {
  if (!isObject(body)) return body;
  if (typeof body.$ref === "string") return onlyRef(body);
  return { ...(body.required !== undefined ? { required: body.required } : {}), content: cleanContent(body.content) };
}

/**
 * A response with only its JSON bodies (application/json and +json types),
 * the ones the check reads: an Atom or XML alternative (the National Weather
 * Service's application/atom+xml) would only bring its schemas along.
 */
function cleanResponse(response: unknown): unknown {
  if (!isObject(response)) return response;
  if (typeof response.$ref === "string") return onlyRef(response);
  if (!isObject(response.content)) return {};
  return { content: cleanContent(Object.fromEntries(Object.entries(response.content).filter(([type]) => mediaKind(type) === "json"))) };
}

function cleanOperation(op: JsonObject): JsonObject {
  const out: JsonObject = { operationId: op.operationId };
  if (Array.isArray(op.parameters)) out.parameters = op.parameters.map(cleanParameter);
  if (op.requestBody !== undefined) out.requestBody = cleanBody(op.requestBody);
  if (isObject(op.responses)) out.responses = Object.fromEntries(Object.entries(op.responses).map(([s, r]) => [s, cleanResponse(r)]));
  return out;
}

const TYPE_KEYS = ["type", "format", "items", "enum", "default", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "multipleOf"];

function refsToComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(refsToComponents);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? v.replace(/^#\/definitions\//, "#/components/schemas/").replace(/^#\/parameters\//, "#/components/parameters/").replace(/^#\/responses\//, "#/components/responses/") : refsToComponents(v)]),
  );
}

/** A Swagger 2.0 parameter as OpenAPI 3 (body and formData ones are handled by the operation). */
function swaggerParameter(p: JsonObject): JsonObject {
  if (typeof p.$ref === "string") return p;
  const schema: JsonObject = {};
  for (const key of TYPE_KEYS) if (p[key] !== undefined) schema[key] = p[key];
  const out: JsonObject = { name: p.name, in: p.in, schema };
  if (p.required !== undefined) out.required = p.required;
  // collectionFormat csv (the default) is form style without explode; multi is form with explode.
  if (p.type === "array") Object.assign(out, p.collectionFormat === "multi" ? { style: "form", explode: true } : { style: p.in === "query" ? "form" : "simple", explode: false });
  return out;
}

export function fromSwagger2(doc: JsonObject): JsonObject {
  const d = refsToComponents(doc) as JsonObject;
  const base = typeof d.basePath === "string" && d.basePath !== "/" ? d.basePath.replace(/\/$/, "") : "";
  const shared = isObject(d.parameters) ? d.parameters : {};
  const deref = (p: unknown): JsonObject => (isObject(p) && typeof p.$ref === "string" ? (resolvePointer(d, p.$ref.replace("#/components/parameters/", "#/parameters/")) as JsonObject) : (p as JsonObject));
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(isObject(d.paths) ? d.paths : {})) {
    if (!isObject(item)) continue;
    const converted: JsonObject = {};
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op)) continue;
      const all = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])].map(deref);
      const parameters = all.filter((p) => p.in !== "body" && p.in !== "formData").map(swaggerParameter);
      const body = all.find((p) => p.in === "body");
      const form = all.filter((p) => p.in === "formData");
      const out: JsonObject = { ...op, parameters };
      if (body) out.requestBody = { required: body.required === true, content: { "application/json": { schema: body.schema } } };
      else if (form.length > 0) {
        const properties = Object.fromEntries(form.map((p) => [String(p.name), swaggerParameter(p).schema]));
        const required = form.filter((p) => p.required === true).map((p) => p.name);
        out.requestBody = { content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) } } } };
      }
      out.responses = Object.fromEntries(
        Object.entries(isObject(op.responses) ? op.responses : {}).map(([status, r]) => [status, isObject(r) && r.schema !== undefined ? { content: { "application/json": { schema: r.schema } } } : isObject(r) && typeof r.$ref === "string" ? r : {}]),
      );
      converted[method] = out;
    }
    paths[base + path] = converted;
  }
  const responses = Object.fromEntries(Object.entries(isObject(d.responses) ? d.responses : {}).map(([n, r]) => [n, isObject(r) && r.schema !== undefined ? { content: { "application/json": { schema: r.schema } } } : {}]));
  const parameters = Object.fromEntries(Object.entries(shared).filter(([, p]) => isObject(p) && p.in !== "body" && p.in !== "formData").map(([n, p]) => [n, swaggerParameter(p as JsonObject)]));
  return { openapi: "3.0.0", paths, components: { schemas: d.definitions ?? {}, parameters, responses } };
}

/** A discovery schema (and its nested ones) as a JSON schema with OpenAPI references. */
function discoverySchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(discoverySchema);
  if (!isObject(s)) return s;
  return Object.fromEntries(
    Object.entries(s)
      .filter(([k]) => !["id", "location", "enumDescriptions", "repeated", "annotations"].includes(k))
      .map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? `#/components/schemas/${v}` : k === "properties" && isObject(v) ? Object.fromEntries(Object.entries(v).map(([n, p]) => [n, discoverySchema(p)])) : discoverySchema(v)]),
  );
}

export function fromDiscovery(doc: JsonObject): JsonObject {
  const paths: JsonObject = {};
  const service = typeof doc.servicePath === "string" ? doc.servicePath : "";
  const walk = (resources: unknown): void => {
    for (const resource of Object.values(isObject(resources) ? resources : {})) {
      if (!isObject(resource)) continue;
      for (const method of Object.values(isObject(resource.methods) ? resource.methods : {})) {
        if (!isObject(method)) continue;
        const path = "/" + `${service}${String(method.flatPath ?? method.path)}`.replace(/^\//, "").replace(/\{\+/g, "{");
        const parameters = Object.entries(isObject(method.parameters) ? method.parameters : {}).map(([name, p]) => {
          const q = p as JsonObject;
          const { required: _required, ...schema } = discoverySchema(q) as JsonObject;
          const out: JsonObject = { name, in: q.location, schema: q.repeated === true ? { type: "array", items: schema } : schema };
          if (q.required === true) out.required = true;
          return out;
        });
        const op: JsonObject = { operationId: method.id, parameters };
        if (isObject(method.request)) op.requestBody = { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${String(method.request.$ref)}` } } } };
        op.responses = { "200": isObject(method.response) ? { content: { "application/json": { schema: { $ref: `#/components/schemas/${String(method.response.$ref)}` } } } } : {} };
        const item = (paths[path] ?? {}) as JsonObject;
        item[String(method.httpMethod).toLowerCase()] = op;
        paths[path] = item;
      }
      walk(resource.resources);
    }
  };
  walk(doc.resources);
  const schemas = Object.fromEntries(Object.entries(isObject(doc.schemas) ? doc.schemas : {}).map(([n, s]) => [n, discoverySchema(s)]));
  return { openapi: "3.0.0", paths, components: { schemas } };
}

/** Every local `$ref` under a value. */
function refs(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refs(v, into);
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") into.add(v);
      else refs(v, into);
    }
  }
  return into;
}

const CLEANERS: Record<string, (v: unknown) => unknown> = { schemas: cleanSchema, parameters: cleanParameter, responses: cleanResponse, requestBodies: cleanBody };

export function keep(doc: JsonObject, operations: Array<{ method: string; path: string }>): JsonObject {
  const paths: JsonObject = {};
  for (const { method, path } of operations) {
    const item = (doc.paths as JsonObject | undefined)?.[path];
    const op = isObject(item) ? item[method] : undefined;
    if (!isObject(item) || !isObject(op)) throw new Error(`the description has no ${method.toUpperCase()} ${path}`);
    // Path-level parameters are folded into the operation.
    const merged = { ...op, parameters: [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])] };
    paths[path] = { ...((paths[path] as JsonObject | undefined) ?? {}), [method]: cleanOperation(merged) };
  }
  const components: Record<string, JsonObject> = {};
  const seen = new Set<string>();
  let pending = [...refs(paths, new Set())];
  while (pending.length > 0) {
    const next = new Set<string>();
    for (const ref of pending) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      const match = /^#\/components\/(\w+)\/(.+)$/.exec(ref);
      if (!match) throw new Error(`unsupported $ref ${ref}`);
      const [, kind, name] = match as unknown as [string, string, string];
      const target = resolvePointer(doc, ref);
      if (target === undefined) throw new Error(`$ref ${ref} has no target`);
      const cleaned = (CLEANERS[kind] ?? ((v: unknown) => v))(target);
      (components[kind] ??= {})[name.replaceAll("~1", "/").replaceAll("~0", "~")] = cleaned as JsonObject;
      refs(cleaned, next);
    }
    pending = [...next];
  }
  return { openapi: "3.0.0", paths, ...(Object.keys(components).length > 0 ? { components: sortKeys(components) } : {}) };
}

function sortKeys(components: Record<string, JsonObject>): JsonObject {
  return Object.fromEntries(Object.entries(components).map(([kind, items]) => [kind, Object.fromEntries(Object.entries(items).sort(([a], [b]) => a.localeCompare(b)))]));
}

/** Several descriptions' kept parts as one (a provider may publish one file per API); a shared name must hold the same schema. */
function merge(parts: JsonObject[]): JsonObject {
  const out: JsonObject = { openapi: "3.0.0", paths: {} };
  const components: Record<string, JsonObject> = {};
  for (const part of parts) {
    for (const [path, item] of Object.entries(part.paths as JsonObject)) (out.paths as JsonObject)[path] = { ...(((out.paths as JsonObject)[path] as JsonObject | undefined) ?? {}), ...(item as JsonObject) };
    for (const [kind, items] of Object.entries((part.components as JsonObject | undefined) ?? {})) {
      for (const [name, value] of Object.entries(items as JsonObject)) {
        const there = (components[kind] ??= {})[name];
        if (there !== undefined && JSON.stringify(there) !== JSON.stringify(value)) throw new Error(`components.${kind}.${name} differs between the descriptions`);
        components[kind][name] = value;
      }
    }
  }
  return Object.keys(components).length > 0 ? { ...out, components: sortKeys(components) } : out;
}

const OPERATION = /^(get|put|post|delete|patch|head|options|trace)\s+\//i;

function main(argv: string[]): void {
  const [format, output, ...rest] = argv as [Format, string, ...string[]];
  const inputs = rest.filter((a) => !OPERATION.test(a));
  const ops = rest.filter((a) => OPERATION.test(a)).map((o) => {
    const [method, path] = o.split(/\s+/, 2) as [string, string];
    return { method: method.toLowerCase(), path };
  });
  if (!["swagger2", "openapi3", "discovery", "proto", "wadl"].includes(format) || !output || inputs.length === 0 || ops.length === 0) {
    throw new Error('usage: keep.ts <swagger2|openapi3|discovery|proto|wadl> <description.json> <source file>... "get /path" ...');
  }
  const docs = inputs.map((input) => {
    const text = readFileSync(input, "utf8");
    if (format === "proto") return fromProto(text);
    if (format === "wadl") return fromWadl(text);
    const raw = (/\.ya?ml$/.test(input) ? loadYaml(text) : JSON.parse(text)) as JsonObject;
    return format === "swagger2" ? fromSwagger2(raw) : format === "discovery" ? fromDiscovery(raw) : raw;
  });
  // Each operation from the one description that has it.
  const parts = docs.map((doc) => keep(doc, ops.filter((o) => isObject((doc.paths as JsonObject | undefined)?.[o.path]) && isObject(((doc.paths as JsonObject)[o.path] as JsonObject)[o.method]))));
  const missing = ops.filter((o) => !parts.some((p) => isObject((p.paths as JsonObject)[o.path])));
  if (missing.length > 0) throw new Error(`no description has ${missing.map((o) => `${o.method.toUpperCase()} ${o.path}`).join(", ")}`);
  writeFileSync(output, JSON.stringify(merge(parts.filter((p) => Object.keys(p.paths as JsonObject).length > 0)), null, 1) + "\n");
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`keep.ts: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
