// OpenAPI tools: from a stepfile's `openapi` field to requests and results.
// Network I/O happens only through the injected `fetchBytes` (documents) and
// in egress (calls); everything here is pure apart from `$ref` inlining.
export { dereference, DEREFERENCE_TIMEOUT_MS, type DereferenceOptions } from "./dereference.js";
export { buildOperations, type BuildOptions } from "./operations.js";
export { buildRequest, routeOf, type HttpRequest } from "./build-request.js";
export { parseResult, errorText, type ParsedResult } from "./parse-result.js";
export { loadDocument, loadOperations, parseDocument } from "./load-document.js";
export { HTTP_METHODS } from "./http-methods.js";
export type { BodySpec, FetchBytes, JsonSchema, OpenApiToolSpec, OperationSpec, ParamLocation, ParamSpec, Placement } from "./types.js";
