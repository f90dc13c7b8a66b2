// Builds the operations a stepfile tool exposes from its dereferenced document.
import { ApiDocumentInvalid } from "../../errors.js";
import { acceptHeader } from "./accept.js";
import { HTTP_METHODS } from "./http-methods.js";
import { buildInputSchema } from "./input-schema.js";
import { isObject, type JsonObject } from "./json.js";
import { asDocument } from "./openapi-version.js";
import { declaredParams } from "../../format/openapi-parameters.js";
import { chooseRequestBody } from "../../format/openapi-request-body.js";
import { SchemaExporter } from "./schema-export.js";
import { securityPlacements } from "./security.js";
import type { OperationSpec } from "./types.js";

export interface BuildOptions {
  /** Largest input schema, in copied schema nodes (see schema-export). */
  maxSchemaNodes?: number;
}

interface Located {
  method: string;
  path: string;
  pathItem: JsonObject;
  operation: JsonObject;
}

/**
 * One `OperationSpec` per exposed operationId, from a document already passed
 * through `dereference`. Throws `ApiDocumentInvalid` naming the operation for
 * an operationId the document lacks, or one it cannot be called with.
 *
 * @example
 * const ops = buildOperations(await dereference(document), ["getItem"]);
 * const request = buildRequest(ops.get("getItem")!, "https://api.example.com/v1", { id: "K-1" });
 */
export function buildOperations(document: unknown, exposes: readonly string[], options: BuildOptions = {}): Map<string, OperationSpec> {
  const doc = asDocument(document);
  const index = indexOperations(doc);
  const result = new Map<string, OperationSpec>();
  for (const name of exposes) {
    const found = index.get(name);
    if (found === undefined) {
      const known = [...index.keys()];
      const list = known.length > 20 ? `${known.slice(0, 20).join(", ")}, ...` : known.join(", ") || "none";
      throw new ApiDocumentInvalid(`operation ${name} is not in the document (its operationIds: ${list})`, { operation: name });
    }
    if (found === "duplicate") throw new ApiDocumentInvalid(`operationId ${name} is used by more than one operation`, { operation: name });
    result.set(name, buildOperation(doc, name, found, options));
  }
  return result;
}

function buildOperation(doc: JsonObject, name: string, at: Located, options: BuildOptions): OperationSpec {
  const params = declaredParams(at.pathItem, at.operation, at.path, name);
  const body = chooseRequestBody(at.operation, name);
  const exporter = new SchemaExporter(doc, name, options.maxSchemaNodes);
  const input = buildInputSchema(exporter, params, body, name);
  return {
    name,
    method: at.method.toUpperCase(),
    pathTemplate: at.path,
    description: describe(at),
    inputSchema: input.inputSchema,
    argumentSchema: input.argumentSchema,
    params: input.params,
    ...(body ? { body: { contentType: body.contentType, kind: body.kind, required: body.required } } : {}),
    accept: acceptHeader(at.operation),
    security: securityPlacements(doc, at.operation, name),
  };
}

function indexOperations(doc: JsonObject): Map<string, Located | "duplicate"> {
  const index = new Map<string, Located | "duplicate">();
  for (const [path, pathItem] of Object.entries(doc.paths as JsonObject)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation) || typeof operation.operationId !== "string") continue;
      const id = operation.operationId;
      index.set(id, index.has(id) ? "duplicate" : { method, path, pathItem, operation });
    }
  }
  return index;
}

function describe(at: Located): string {
  const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");
  const summary = text(at.operation.summary) || text(at.pathItem.summary);
  const description = text(at.operation.description) || text(at.pathItem.description);
  const parts = summary && description && description !== summary ? [summary, description] : [summary || description];
  return parts.filter(Boolean).join("\n\n") || `${at.method.toUpperCase()} ${at.path}`;
}
