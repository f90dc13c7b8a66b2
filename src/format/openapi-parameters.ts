// Reads an operation's parameters: path-level ones merged with its own (the
// operation's win, matched by name and location, as OpenAPI says), with the
// serialisation style defaulted per location, and the argument each is
// given. Shared by the OpenAPI tools (which build requests from them) and the
// loader (which checks a mechanical call's arguments against them at load).
import { ApiDocumentInvalid } from "../errors.js";
import { isObject, mediaKind, type JsonObject } from "./json-pointer.js";

export type ParamLocation = "path" | "query" | "header" | "cookie";

export interface DeclaredParam {
  name: string;
  in: ParamLocation;
  required: boolean;
  style: string;
  explode: boolean;
  /** The schema as the document has it (dereferenced). */
  schema: unknown;
  description?: string;
  contentType?: string;
}

const STYLES: Record<ParamLocation, readonly string[]> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

/**
 * Header parameters never taken from a document. OpenAPI itself says to
 * ignore the first three; the rest are set by Stepgate or the HTTP client,
 * and a client-supplied Host or framing header could steer the request.
 */
const IGNORED_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "content-type",
  "authorization",
  "host",
  "cookie",
  "user-agent",
  "content-length",
  "transfer-encoding",
  "connection",
]);

export function declaredParams(pathItem: JsonObject, operation: JsonObject, pathTemplate: string, operationId: string): DeclaredParam[] {
  const byKey = new Map<string, DeclaredParam>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(operationId, "parameters is not a list");
    for (const raw of list) {
      const param = readParam(raw, operationId);
      if (param.in === "header" && IGNORED_HEADERS.has(param.name.toLowerCase())) continue;
      byKey.set(`${param.in}:${param.name}`, param);
    }
  }
  const templateNames = [...pathTemplate.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
  for (const name of templateNames) {
    if (!byKey.has(`path:${name}`)) throw invalid(operationId, `path ${pathTemplate} uses {${name}}, which no path parameter declares`);
  }
  // A path parameter the template does not use could never be sent.
  return [...byKey.values()].filter((p) => p.in !== "path" || templateNames.includes(p.name));
}

function readParam(raw: unknown, operationId: string): DeclaredParam {
  if (!isObject(raw) || typeof raw.name !== "string" || raw.name === "") throw invalid(operationId, "a parameter has no name");
  const where = raw.in;
  if (where !== "path" && where !== "query" && where !== "header" && where !== "cookie") {
    throw invalid(operationId, `parameter ${raw.name} has no valid "in" (path, query, header or cookie)`);
  }
  const style = typeof raw.style === "string" ? raw.style : where === "query" || where === "cookie" ? "form" : "simple";
  if (!STYLES[where].includes(style)) throw invalid(operationId, `${where} parameter ${raw.name} has style ${style}, which is not supported there`);
  const explode = typeof raw.explode === "boolean" ? raw.explode : style === "form";
  const param: DeclaredParam = {
    name: raw.name,
    in: where,
    required: where === "path" || raw.required === true,
    style,
    explode,
    schema: raw.schema ?? {},
    ...(typeof raw.description === "string" ? { description: raw.description } : {}),
  };
  if (raw.schema === undefined && isObject(raw.content)) {
    const [contentType, media] = Object.entries(raw.content)[0] ?? [];
    if (contentType !== undefined && mediaKind(contentType) !== "json") {
      throw invalid(operationId, `parameter ${raw.name} is declared as ${contentType}; only JSON content parameters are supported`);
    }
    if (contentType !== undefined) {
      param.contentType = contentType;
      param.schema = isObject(media) && media.schema !== undefined ? media.schema : {};
    }
  }
  return param;
}

/**
 * The argument that carries each parameter, in order: its own name, or
 * `<in>.<name>` when another visible parameter (or the request body, which is
 * `body`) would share it. A one-value parameter is hidden, so it keeps its
 * name and takes no other's.
 */
export function argumentNames(declared: readonly DeclaredParam[], hasBody: boolean): string[] {
  const uses = new Map<string, number>();
  for (const p of declared) if (onlyValue(p.schema) === undefined) uses.set(p.name, (uses.get(p.name) ?? 0) + 1);
  if (hasBody) uses.set("body", (uses.get("body") ?? 0) + 1);
  return declared.map((p) => (onlyValue(p.schema) || uses.get(p.name) === 1 ? p.name : `${p.in}.${p.name}`));
}

/** The one value a schema admits (`const`, or a one-entry `enum`), if it admits exactly one. */
export function onlyValue(schema: unknown): { value: unknown } | undefined {
  if (!isObject(schema)) return undefined;
  if ("const" in schema) return { value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return { value: schema.enum[0] };
  return undefined;
}

function invalid(operationId: string, reason: string): ApiDocumentInvalid {
  return new ApiDocumentInvalid(`operation ${operationId}: ${reason}`, { operation: operationId });
}
