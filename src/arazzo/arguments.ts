// A step's `parameters` and `requestBody` as the call's `arguments`
// (format section 2: each parameter is the argument of its own name, or
// `<in>.<name>` when two would share it, and the JSON or text body is
// `body`), using the same naming code the OpenAPI tools use
// (src/format/openapi-parameters.ts), so the names always match.
// Arazzo's Parameter Object, Request Body Object and Payload Replacement
// Object: OAI/Arazzo-Specification versions/1.0.1.md at
// fc140d26c440291b0061c62a53e45a8fb07cc369.
import { ApiDocumentInvalid } from "../errors.js";
import { isObject, mediaKind, resolvePointer } from "../format/json-pointer.js";
import { argumentNames, declaredParams, onlyValue, type DeclaredParam } from "../format/openapi-parameters.js";
import { chooseRequestBody } from "../format/openapi-request-body.js";
import { pointerTokens, type Scope } from "./expressions.js";
import { checkContentType, isContentTypeParameter } from "./content-type-parameter.js";
import type { Logic } from "./json-logic.js";
import type { FoundOperation } from "./operations.js";
import { refuse } from "./refusals.js";
import { credentialPlace } from "./security.js";
import { expression, template } from "./templates.js";

export interface ArazzoParameter {
  name: string;
  in?: string;
  value: unknown;
}

/** Headers Stepgate sets itself; a workflow passing one would be refused by the tool (src/format/openapi-parameters.ts). Content-Type has its own check (content-type-parameter.ts). */
const STEPGATE_HEADERS = new Set(["accept", "authorization", "host", "cookie", "user-agent", "content-length", "transfer-encoding", "connection"]);

/**
 * A step's parameters split into those sent as arguments and those that set
 * what the operation's own security scheme puts its credential in: the
 * Authorization header (Redocly's museum example passes `Authorization:
 * Basic ...` as a workflow parameter; Redocly/museum-openapi-example at
 * 2770b2b, arazzo/museum-api.arazzo.yaml), or an apiKey's header, query
 * parameter or cookie (Jentic's generated workflows pass an API key from an
 * input as a query parameter; jentic/jentic-public-apis at c7d9a6e,
 * workflows/meteosource.com/workflows.arazzo.json). Stepgate puts the
 * credential it holds there itself, so the second kind is never sent as
 * written; the converter says so in a note (convert.ts).
 */
export function withoutCredentialParameters(op: FoundOperation, parameters: readonly ArazzoParameter[]): { sent: ArazzoParameter[]; replaced: ArazzoParameter[] } {
  const place = credentialPlace(op);
  const replaces = (p: ArazzoParameter) => place !== undefined && p.in === place.in && (place.in === "header" ? p.name.toLowerCase() === place.name : p.name === place.name);
  return { sent: parameters.filter((p) => !replaces(p)), replaced: parameters.filter(replaces) };
}

export function callArguments(op: FoundOperation, parameters: readonly ArazzoParameter[], requestBody: unknown, scope: Scope): Logic {
  const declared = withRefsResolved(op, scope);
  const body = requestBody === undefined ? undefined : bodyPayload(op, requestBody, scope);
  const names = argumentNames(declared, op.operation.requestBody !== undefined && chosenBody(op) !== undefined);
  const args: [string, unknown][] = [];
  for (const p of parameters) {
    const construct = `parameter ${p.name}${p.in ? ` (in ${p.in})` : ""}`;
    if (isContentTypeParameter(p)) {
      checkContentType(p, chosenBody(op)?.contentType, op.operationId, scope);
      continue;
    }
    if (p.in === "header" && STEPGATE_HEADERS.has(p.name.toLowerCase())) {
      refuse(scope, construct, `Stepgate sets the ${p.name} header itself (a credential goes only where its security scheme says)`, p.name.toLowerCase() === "authorization" ? "declare the API's security scheme in its OpenAPI document, so the value becomes a credential Stepgate holds" : "drop the parameter");
    }
    const i = declared.findIndex((d) => d.name === p.name && (p.in === undefined || d.in === p.in));
    if (i === -1) {
      refuse(scope, construct, `operation ${op.operationId} declares no such parameter, and a stepfile call sends only declared ones`, `declare it in the operation's parameters, or drop it`);
    }
    const param = declared[i]!;
    const fixed = onlyValue(param.schema);
    if (fixed) {
      // A one-value parameter is always sent with that value (format section 2); passing it changes nothing.
      if (JSON.stringify(fixed.value) !== JSON.stringify(p.value)) {
        refuse(scope, construct, `the operation fixes it to ${JSON.stringify(fixed.value)}, which Stepgate always sends`, "pass that value or none");
      }
      continue;
    }
    args.push([names[i]!, p.value]);
  }
  if (body !== undefined) args.push(["body", body.payload]);
  // Written plainly when it can be (more than one key); one key would read as an operator, so it is built.
  if (args.length === 0) return { literal: {} };
  if (args.length === 1) return { object: args.map(([k, v]) => [k, expression(v, scope)]) };
  return Object.fromEntries(args.map(([k, v]) => [k, template(v, scope)]));
}

function withRefsResolved(op: FoundOperation, scope: Scope): DeclaredParam[] {
  const deref = (list: unknown) => (Array.isArray(list) ? list.map((p) => (isObject(p) && typeof p.$ref === "string" ? resolvePointer(op.source.document, p.$ref) ?? p : p)) : list);
  const pathItem = { ...op.pathItem, parameters: deref(op.pathItem.parameters) };
  const operation = { ...op.operation, parameters: deref(op.operation.parameters) };
  try {
    return declaredParams(pathItem, operation, op.pathTemplate, op.operationId);
  } catch (error) {
    if (error instanceof ApiDocumentInvalid) refuse(scope, `operation ${op.operationId}`, error.message, "fix the operation in its OpenAPI document");
    throw error;
  }
}

function chosenBody(op: FoundOperation) {
  const operation = { ...op.operation };
  if (isObject(operation.requestBody) && typeof operation.requestBody.$ref === "string") {
    operation.requestBody = resolvePointer(op.source.document, operation.requestBody.$ref);
  }
  try {
    return chooseRequestBody(operation, op.operationId);
  } catch {
    return undefined;
  }
}

/** The payload with its JSON text parsed and its replacements made; its expressions are translated with the other arguments. */
function bodyPayload(op: FoundOperation, raw: unknown, scope: Scope): { payload: unknown } {
  if (!isObject(raw)) refuse(scope, "requestBody", "it is not an object", "give contentType and payload");
  const chosen = chosenBody(op);
  const types = isObject(op.operation.requestBody) && isObject(op.operation.requestBody.content) ? Object.keys(op.operation.requestBody.content) : [];
  const contentType = typeof raw.contentType === "string" ? raw.contentType : chosen?.contentType;
  if (!chosen || (contentType !== undefined && mediaKind(contentType) !== chosen.kind)) {
    refuse(
      scope,
      `requestBody (${contentType ?? types.join(", ") ?? "no content type"})`,
      `a stepfile's OpenAPI call sends a JSON body, or a plain string for text/*, and operation ${op.operationId} ${chosen ? `takes ${chosen.contentType} there` : `accepts ${types.join(", ") || "no body"}`}`,
      "describe the operation with an application/json (or text/*) request body",
    );
  }
  let payload = raw.payload;
  if (chosen.kind === "json" && typeof payload === "string" && !/^\s*\$/.test(payload)) {
    // A JSON text with embedded expressions in its strings ("{$inputs.x}"), as in the specification's "JSON Templated Example".
    try {
      payload = JSON.parse(payload);
    } catch {
      refuse(scope, "requestBody.payload", "it is a string that is not JSON text (an expression outside quotes cannot be placed)", "write the payload as a YAML or JSON object whose values are runtime expressions");
    }
  }
  const replacements = Array.isArray(raw.replacements) ? raw.replacements : [];
  for (const [i, r] of replacements.entries()) {
    if (!isObject(r) || typeof r.target !== "string") continue;
    payload = replaced(payload, r.target, r.value, scope, `requestBody.replacements[${i}]`);
  }
  return { payload };
}

/** The payload with the value set at a JSON Pointer target that exists in it. */
function replaced(payload: unknown, target: string, value: unknown, scope: Scope, construct: string): unknown {
  const tokens = pointerTokens(target.startsWith("#") ? target.slice(1) : target, scope, target);
  if (tokens.length === 0) return value;
  const copy = structuredClone(payload) as unknown;
  let node: unknown = copy;
  for (const [i, token] of tokens.entries()) {
    const last = i === tokens.length - 1;
    if (Array.isArray(node) && typeof token === "number" && token < node.length) {
      if (last) node[token] = value;
      else node = node[token];
    } else if (isObject(node) && Object.hasOwn(node, String(token))) {
      if (last) node[String(token)] = value;
      else node = node[String(token)];
    } else {
      refuse(scope, `${construct} (target ${target})`, "the payload has no value at that target (an XPath target or a missing location)", "point the target at a JSON Pointer location the payload has");
    }
  }
  return copy;
}

