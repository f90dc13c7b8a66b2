// Every refusal on /mcp is a JSON-RPC error object, so an MCP client can show
// it like any other protocol error instead of choking on an HTML or text body.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** JSON-RPC codes used for HTTP-level refusals (-32000..-32099 is the server range). */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  InternalError: -32603,
  Refused: -32000,
  SessionNotFound: -32001,
} as const;

/** The body of an HTTP-level refusal: a JSON-RPC error response with `id: null`. */
export function jsonRpcErrorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/** Answer `c` with a JSON-RPC shaped error and the given HTTP status. */
export function jsonRpcError(c: Context, status: ContentfulStatusCode, code: number, message: string): Response {
  return c.body(jsonRpcErrorBody(code, message), status, { "content-type": "application/json" });
}
