// stepgate_inspect_api for an OpenAPI document: what an author copies into a
// tool (the digest to pin, the operationIds to expose) and what each
// operation takes and returns, built by the same code that serves it, so the
// arguments shown are exactly the input schema a run would offer.
import { ApiDocumentInvalid } from "../errors.js";
import { sha256 } from "../format/identity.js";
import { buildOperations, dereference, HTTP_METHODS } from "../tools/openapi/index.js";
import { isObject } from "../tools/openapi/json.js";

type Json = Record<string, unknown>;

export interface InspectedOperation {
  operationId: string;
  method: string;
  path: string;
  description?: string;
  /** The input schema stepgate_call would check arguments against. */
  arguments?: Record<string, unknown>;
  success?: { status: string; description?: string; media_types: string[]; schema?: unknown };
  /** Why Stepgate could not expose this operation. */
  problem?: string;
}

export interface OpenApiInspection {
  kind: "openapi";
  /** Absent for a document given inline. */
  url?: string;
  sha256: string;
  openapi: string;
  title?: string;
  servers: Array<{ url: string; description?: string }>;
  security_schemes: Record<string, unknown>;
  operations: InspectedOperation[];
  /** Stepgate exposes operations by operationId; these have none and cannot be exposed. */
  without_operation_id: Array<{ method: string; path: string; summary?: string }>;
}

export async function inspectOpenApi(url: string | undefined, bytes: Uint8Array, document: Json): Promise<OpenApiInspection> {
  const doc = await dereference(document);
  const info = isObject(doc.info) ? doc.info : {};
  const components = isObject(doc.components) ? doc.components : {};
  const inspection: OpenApiInspection = {
    kind: "openapi",
    ...(url !== undefined ? { url } : {}),
    sha256: sha256(bytes),
    openapi: String(doc.openapi),
    ...(typeof info.title === "string" ? { title: info.title } : {}),
    servers: (Array.isArray(doc.servers) ? doc.servers : []).filter(isObject).map((s) => ({ url: String(s.url), ...(typeof s.description === "string" ? { description: s.description } : {}) })),
    security_schemes: isObject(components.securitySchemes) ? components.securitySchemes : {},
    operations: [],
    without_operation_id: [],
  };
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      if (typeof op.operationId !== "string") {
        inspection.without_operation_id.push({ method: method.toUpperCase(), path, ...(typeof op.summary === "string" ? { summary: op.summary } : {}) });
        continue;
      }
      inspection.operations.push(describeOperation(doc, op.operationId, method, path, op));
    }
  }
  return inspection;
}

function describeOperation(doc: Json, id: string, method: string, path: string, op: Json): InspectedOperation {
  const base = { operationId: id, method: method.toUpperCase(), path };
  // One operation Stepgate cannot call should not hide the others.
  try {
    const built = buildOperations(doc, [id]).get(id)!;
    const success = successResponse(op);
    return { ...base, description: built.description, arguments: built.inputSchema, ...(success ? { success } : {}) };
  } catch (error) {
    if (!(error instanceof ApiDocumentInvalid)) throw error;
    return { ...base, problem: error.message.replace(/^API document invalid: /, "") };
  }
}

/** The first 2xx response (by status), which is what a successful call returns. */
function successResponse(op: Json): InspectedOperation["success"] {
  const responses = isObject(op.responses) ? op.responses : {};
  const status = Object.keys(responses)
    .filter((s) => /^2(\d\d|XX)$/i.test(s))
    .sort()[0];
  if (status === undefined) return undefined;
  const response = isObject(responses[status]) ? responses[status] : {};
  const content = isObject(response.content) ? response.content : {};
  const types = Object.keys(content);
  const json = types.find((t) => /json/i.test(t)) ?? types[0];
  const media = json !== undefined && isObject(content[json]) ? content[json] : {};
  return {
    status,
    ...(typeof response.description === "string" ? { description: response.description } : {}),
    media_types: types,
    ...(media.schema !== undefined ? { schema: media.schema } : {}),
  };
}
