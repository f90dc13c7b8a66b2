// A provider's published OpenAPI description, read once: operations by
// method and path, with `$ref`s followed and `allOf` merged on demand. The
// descriptions are large (GitHub's is 13 MB), so nothing is dereferenced
// ahead of time.
import { readFileSync } from "node:fs";
import { isObject, mediaKind, resolvePointer, unescapePointerToken, type JsonObject } from "../../../src/format/json-pointer.js";

export type Schema = JsonObject;

export interface PublishedParameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
  schema: Schema;
}

export interface PublishedOperation {
  method: string;
  path: string;
  operationId: string;
  parameters: PublishedParameter[];
  body?: Schema | undefined;
  /** Whether the operation's request body is required (OpenAPI's requestBody.required). */
  bodyRequired: boolean;
  /**
   * Each status's JSON bodies by media type: application/json and any +json
   * type (the National Weather Service answers application/geo+json), which
   * Stepgate parses as JSON. Empty for a status with no JSON body.
   */
  responses: Map<string, Map<string, Schema>>;
}

/**
 * A reading of one published schema that its provider's own reference and
 * examples give, where the description says otherwise by a slip of its
 * generator or says it only in words (source.json `corrections`, each with
 * why). Two kinds:
 * - `"read": "items as anyOf"`, for a schema at `at` whose `items` is a list
 *   of shapes (JSON Schema draft 4's tuple form, which Swagger 2.0 does not
 *   have) standing one level too deep: it is read as an array whose items
 *   are any of those shapes;
 * - `"read": "required"`, with `fields`, for an object schema at `at` whose
 *   description promises those fields in every answer in words rather than
 *   in its `required` list (NWS's Alert follows CAP v1.2, which requires an
 *   alert's status and its info's event): they are read as required.
 * A correction that no longer matches its schema throws (a bare list no
 * longer under items; a field no longer declared there, or already
 * required), so none outlives the slip it covers.
 */
export interface Correction {
  at: string;
  read: "items as anyOf" | "required";
  /** For "required": the fields read as required. */
  fields?: string[];
  why: string;
}

function applyCorrection(doc: JsonObject, c: Correction): void {
  const slash = c.at.lastIndexOf("/");
  const parent = resolvePointer(doc, c.at.slice(0, slash));
  const key = unescapePointerToken(c.at.slice(slash + 1));
  const node = isObject(parent) ? parent[key] : undefined;
  if (c.read === "required") {
    const fields = c.fields ?? [];
    if (!isObject(node) || !isObject(node.properties) || fields.length === 0) throw new Error(`correction at ${c.at}: no object schema with properties there, or no fields named; remove the correction`);
    const required = Array.isArray(node.required) ? node.required.map(String) : [];
    for (const f of fields) {
      if ((node.properties as JsonObject)[f] === undefined) throw new Error(`correction at ${c.at}: the description no longer declares ${f} there; remove it from the correction`);
      if (required.includes(f)) throw new Error(`correction at ${c.at}: the description now requires ${f} itself; remove it from the correction`);
    }
    node.required = [...required, ...fields];
    return;
  }
  if (c.read !== "items as anyOf") throw new Error(`correction at ${c.at}: unknown reading ${String(c.read)}`);
  if (!isObject(parent) || !isObject(node) || !Array.isArray(node.items) || Object.keys(node).some((k) => k !== "items")) {
    throw new Error(`correction at ${c.at}: the description no longer has a bare list of shapes under items there; remove the correction`);
  }
  parent[key] = { anyOf: node.items };
}

export class PublishedDescription {
  private readonly doc: JsonObject;

  constructor(file: string, corrections: Correction[] = []) {
    this.doc = JSON.parse(readFileSync(file, "utf8")) as JsonObject;
    for (const c of corrections) applyCorrection(this.doc, c);
  }

  /** The object a `$ref` chain ends at (local references only, as the descriptions use). */
  deref(value: unknown): unknown {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
      if (hops > 50) throw new Error(`$ref cycle at ${current.$ref}`);
      current = resolvePointer(this.doc, current.$ref);
    }
    return current;
  }

  /** A schema with its `$ref` followed and its `allOf` parts merged (properties and required). */
  schema(value: unknown): Schema {
    const node = this.deref(value);
    if (!isObject(node)) return {};
    if (!Array.isArray(node.allOf)) return node;
    const merged: Schema = { ...node, properties: { ...(isObject(node.properties) ? node.properties : {}) } };
    delete merged.allOf;
    for (const part of node.allOf) {
      const resolved = this.schema(part);
      Object.assign(merged.properties as Schema, isObject(resolved.properties) ? resolved.properties : {});
      if (Array.isArray(resolved.required)) merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...resolved.required];
      for (const key of ["type", "additionalProperties", "items", "nullable"]) if (resolved[key] !== undefined && merged[key] === undefined) merged[key] = resolved[key];
    }
    return merged;
  }

  operation(method: string, path: string): PublishedOperation | undefined {
    const item = this.deref((this.doc.paths as JsonObject | undefined)?.[path]);
    if (!isObject(item)) return undefined;
    const op = this.deref(item[method]);
    if (!isObject(op)) return undefined;
    const raw = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])];
    const parameters = raw.map((p) => this.deref(p)).filter(isObject).map((p) => ({
      name: String(p.name),
      in: String(p.in),
      required: p.required === true,
      description: typeof p.description === "string" ? p.description : "",
      schema: this.schema(p.schema),
    }));
    const body = this.deref(op.requestBody);
    const bodySchema = isObject(body) ? jsonContent(body.content) : undefined;
    const responses = new Map<string, Map<string, Schema>>();
    for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
      const resolved = this.deref(response);
      const bodies = new Map<string, Schema>();
      for (const [type, media] of Object.entries(isObject(resolved) && isObject(resolved.content) ? resolved.content : {})) {
        if (mediaKind(type) === "json" && isObject(media) && media.schema !== undefined) bodies.set(type.split(";")[0]!.trim().toLowerCase(), this.schema(media.schema));
      }
      responses.set(status, bodies);
    }
    return {
      method,
      path,
      operationId: String(op.operationId ?? ""),
      parameters,
      body: isObject(bodySchema) && bodySchema.schema !== undefined ? this.schema(bodySchema.schema) : undefined,
      bodyRequired: isObject(body) && body.required === true,
      responses,
    };
  }
}

/**
 * The JSON media type of a content map: application/json, or else one with
 * parameters (Wikimedia's summary is served only as `application/json;
 * charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/Summary/1.5.0"`).
 */
function jsonContent(content: unknown): unknown {
  if (!isObject(content)) return undefined;
  if (content["application/json"] !== undefined) return content["application/json"];
  const key = Object.keys(content).find((k) => k.split(";")[0]!.trim().toLowerCase() === "application/json");
  return key === undefined ? undefined : content[key];
}
