// Turns a call's arguments into the HTTP request of one operation. Pure: no
// I/O and no credential (egress attaches that from `op.security`).
import { ToolCallFailed } from "../../errors.js";
import { encodePathLiteral } from "./percent-encode.js";
import { ArgumentRefused, serialiseForm, serialiseHeader, serialisePath } from "./serialise-param.js";
import type { OperationSpec, ParamSpec } from "./types.js";

export interface HttpRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

/**
 * Builds the request for `op` against `serverBaseUrl` (which may carry a path
 * prefix: `https://x/api/v3` + `/pets/{id}` -> `https://x/api/v3/pets/7`).
 * Arguments are expected to have passed `op.inputSchema`; what the schema
 * cannot rule out (an argument that would leave the path, a line break in a
 * header) throws `ToolCallFailed` with no status, before anything is sent.
 *
 * @example
 * buildRequest(op, "https://api.example.com/v1", { id: "K-1", tag: ["a", "b"] });
 * // { method: "GET", url: "https://api.example.com/v1/items/K-1?tag=a&tag=b", headers: { accept: "application/json" } }
 */
export function buildRequest(op: OperationSpec, serverBaseUrl: string, args: Record<string, unknown>): HttpRequest {
  try {
    return assemble(op, serverBaseUrl, args);
  } catch (error) {
    if (error instanceof ArgumentRefused || error instanceof URIError) throw new ToolCallFailed(op.name, null, "", error.message);
    throw error;
  }
}

/** The request path as a template (`/api/v3/pets/{id}`): what a trace names, free of the argument values (src/telemetry). */
export function routeOf(op: OperationSpec, serverBaseUrl: string): string {
  return `${pathPrefix(new URL(serverBaseUrl))}${pathTemplate(op)}`;
}

const pathPrefix = (base: URL) => base.pathname.replace(/\/+$/, "");
const pathTemplate = (op: OperationSpec) => (op.pathTemplate.startsWith("/") ? op.pathTemplate : `/${op.pathTemplate}`);

function assemble(op: OperationSpec, serverBaseUrl: string, args: Record<string, unknown>): HttpRequest {
  const base = new URL(serverBaseUrl);
  const prefix = pathPrefix(base);
  const headers: Record<string, string> = { accept: op.accept };
  const query: string[] = base.search ? [base.search.slice(1)] : [];
  const cookies: string[] = [];
  const pathValues = new Map<string, string>();

  for (const param of op.params) {
    const value = valueOf(param, args);
    if (value === undefined) {
      if (param.required) throw new ArgumentRefused(`${param.in} parameter ${param.name} is required (argument ${param.argument})`);
      continue;
    }
    if (param.in === "path") pathValues.set(param.name, pathSegmentText(param, value));
    else if (param.in === "query") query.push(...serialiseForm(param, value));
    else if (param.in === "cookie") cookies.push(...serialiseForm(param, value, "; "));
    else headers[param.name.toLowerCase()] = serialiseHeader(param, value);
  }
  if (cookies.length > 0) headers.cookie = cookies.filter(Boolean).join("; ");

  const path = pathTemplate(op)
    .split(/(\{[^{}]+\})/)
    .map((part, i) => (i % 2 === 1 ? (pathValues.get(part.slice(1, -1)) ?? "") : encodePathLiteral(part)))
    .join("");
  const search = query.filter(Boolean).join("&");
  // Encoding already keeps every argument inside its segment; these re-check
  // the finished URL so a mistake here fails closed rather than leaking.
  if (`${prefix}${path}`.split("/").some(isDotSegment)) throw new ArgumentRefused(`the request path ${path} would climb out of ${prefix || "/"}`);
  const url = new URL(`${base.origin}${prefix}${path}${search ? `?${search}` : ""}`);
  if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) {
    throw new ArgumentRefused(`the request URL would leave ${base.origin}${prefix}`);
  }

  const request: HttpRequest = { method: op.method, url: url.href, headers };
  const body = args.body;
  if (op.body && body !== undefined) {
    if (op.body.kind === "text" && typeof body !== "string") throw new ArgumentRefused(`the body of ${op.name} must be a string (${op.body.contentType})`);
    request.body = op.body.kind === "text" ? (body as string) : JSON.stringify(body);
    headers["content-type"] = op.body.contentType;
  } else if (op.body?.required) {
    throw new ArgumentRefused(`${op.name} requires a body`);
  }
  return request;
}

function valueOf(param: ParamSpec, args: Record<string, unknown>): unknown {
  if (param.fixed) return param.fixed.value;
  return Object.hasOwn(args, param.argument) ? args[param.argument] : undefined;
}

/** A path value may not be empty or a dot segment: either would change which resource the path names. */
function pathSegmentText(param: ParamSpec, value: unknown): string {
  const text = serialisePath(param, value);
  if (text === "") throw new ArgumentRefused(`path parameter ${param.name} is empty`);
  if (isDotSegment(text)) throw new ArgumentRefused(`path parameter ${param.name} may not be "." or ".."`);
  return text;
}

/** `.` and `..`, in any spelling URL parsers treat as one. */
function isDotSegment(segment: string): boolean {
  return /^(\.|%2e){1,2}$/i.test(segment);
}
