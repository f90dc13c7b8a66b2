// The operations of inline OpenAPI documents, and what their calls can
// return, as JSON Schemas, for the load warnings on paths read through
// `results` and `calls[].result`. Only what the stepfile itself holds is
// known at load: an inline OpenAPI `document`.
// Anything else (a document fetched by url, a remote MCP tool) is left out,
// and a path into it is never judged, until a check fetches the document
// (src/loader/findings.ts) or lists the MCP server
// (src/loader/mcp-output-schemas.ts gives its tools' results in this shape).
import { isObject, mediaKind, resolvePointer, type JsonObject } from "../format/json-pointer.js";
import { HTTP_METHODS } from "../format/http-methods.js";
import type { StepfileDocument } from "../format/types.js";

/** A schema and the document its `$ref`s point into. */
export interface LocatedSchema {
  schema: unknown;
  root: unknown;
}

/** The schemas a call's result may match; undefined where the document leaves it open. */
export interface OperationResponses {
  /** A call that was not an error (status below 400): what `results` reads. */
  success?: LocatedSchema[];
  /**
   * Any call that reached the API, errors included: what `calls[].result`
   * holds, as the statuses the document lists describe it (a status it does
   * not list is the API breaking its own document: not what a path is
   * judged against, any more than `results` is).
   */
  any?: LocatedSchema[];
  /** A mechanical call's response when it keeps these error statuses (`accept`); undefined when one is not declared. */
  accepting(statuses: readonly number[]): LocatedSchema[] | undefined;
  /** How a finding names these schemas; "the response schema of <operation>" when not given. */
  what?: string;
}



/** An operation of an inline OpenAPI document, with where it sits. */
export interface InlineOperation {
  operation: JsonObject;
  pathItem: JsonObject;
  path: string;
  /** Its HTTP method, lower case as the path item keys it. */
  method: string;
  document: JsonObject;
}

/** The exposed operations of every tool with an inline OpenAPI document, by name. */
export function inlineOperations(doc: StepfileDocument): Map<string, InlineOperation> {
  const out = new Map<string, InlineOperation>();
  for (const tool of Object.values(doc.tools ?? {})) {
    const document = tool.openapi?.document;
    if (!isObject(document) || !isObject(document.paths)) continue;
    const operations = operationsById(document);
    for (const exposed of tool.exposes ?? []) {
      const name = typeof exposed === "string" ? exposed : exposed.name;
      const operation = operations.get(name);
      if (operation) out.set(name, operation);
    }
  }
  return out;
}

/** Each exposed operation's response schemas, by name. */
export function inlineResponseSchemas(operations: ReadonlyMap<string, InlineOperation>): Map<string, OperationResponses> {
  const out = new Map<string, OperationResponses>();
  for (const [name, found] of operations) out.set(name, responsesOf(found.operation, found.document));
  return out;
}

function operationsById(document: JsonObject): Map<string, InlineOperation> {
  const byId = new Map<string, InlineOperation>();
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as JsonObject)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      // A duplicated operationId is refused when serving; judge neither.
      if (seen.has(op.operationId)) byId.delete(op.operationId);
      else byId.set(op.operationId, { operation: op, pathItem: item, path, method, document });
      seen.add(op.operationId);
    }
  }
  return byId;
}

function responsesOf(operation: JsonObject, document: JsonObject): OperationResponses {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const statuses = Object.keys(responses);
  const hasDefault = statuses.includes("default");
  const successes = statuses.filter((s) => /^[123]/.test(s) || s === "default");
  const declaresSuccess = hasDefault || statuses.some((s) => /^2/.test(s));
  const success = declaresSuccess ? schemasOf(successes, responses, document) : undefined;
  return {
    ...optional("success", success),
    ...(declaresSuccess ? optional("any", schemasOf(statuses, responses, document)) : {}),
    accepting(accepted) {
      // An accepted status answers with its own entry, its range (4XX), or default.
      const keys = accepted.map((status) => [String(status), `${String(status)[0]}XX`, "default"].find((k) => statuses.includes(k)));
      if (!success || keys.includes(undefined)) return undefined;
      const errors = schemasOf(keys as string[], responses, document);
      return errors ? [...success, ...errors] : undefined;
    },
  };
}

function optional<K extends string>(key: K, value: LocatedSchema[] | undefined): Partial<Record<K, LocatedSchema[]>> {
  return value ? ({ [key]: value } as Record<K, LocatedSchema[]>) : {};
}

/** Every JSON schema the listed responses declare; undefined when any of them may be something else (no body, a non-JSON body, no schema). */
function schemasOf(statuses: readonly string[], responses: JsonObject, document: JsonObject): LocatedSchema[] | undefined {
  const out: LocatedSchema[] = [];
  for (const status of statuses) {
    const response = follow(responses[status], document);
    const content = isObject(response) && isObject(response.content) ? response.content : undefined;
    if (!content || Object.keys(content).length === 0) return undefined;
    for (const [type, media] of Object.entries(content)) {
      if (mediaKind(type) !== "json" || !isObject(media) || media.schema === undefined) return undefined;
      out.push({ schema: media.schema, root: document });
    }
  }
  return out;
}

/** A response, parameter or request body object, following `$ref`s to components (a few hops at most). */
export function follow(node: unknown, document: JsonObject): unknown {
  for (let hops = 0; hops < 8 && isObject(node) && typeof node.$ref === "string"; hops++) node = resolvePointer(document, node.$ref);
  return isObject(node) && typeof node.$ref === "string" ? undefined : node;
}
