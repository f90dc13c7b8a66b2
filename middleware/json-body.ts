// The seed promises 400 for a body that is not JSON. The SDK would answer a
// wrong Content-Type with 415 and parse again itself; checking and parsing
// once here gives one answer for both cases and hands the parsed value on,
// so the route never reads the body a second time.
import type { MiddlewareHandler } from "hono";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

/** Hono variables this middleware sets: the parsed JSON of a POST body. */
export interface JsonBodyEnv {
  Variables: { parsedBody: unknown };
}

export interface JsonBodyOptions {
  /** Methods whose bodies must be JSON; default POST only (GET and DELETE carry none). */
  methods?: readonly string[];
}

/** Whether a Content-Type header names application/json (parameters such as charset allowed). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/**
 * Refuses (400) a request body that is not declared as and parsed as JSON, and stores the parsed value.
 *
 * @example
 * app.post("/mcp", jsonBody(), (c) => c.json(c.get("parsedBody")));
 */
export function jsonBody(options: JsonBodyOptions = {}): MiddlewareHandler<JsonBodyEnv> {
  const methods = new Set(options.methods ?? ["POST"]);
  return async function jsonBody(c, next) {
    if (!methods.has(c.req.method)) return next();
    if (!isJsonMediaType(c.req.header("content-type"))) {
      return jsonRpcError(c, 400, JsonRpcCode.InvalidRequest, "Bad Request: Content-Type must be application/json");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await c.req.text());
    } catch {
      return jsonRpcError(c, 400, JsonRpcCode.ParseError, "Parse error: the body is not valid JSON");
    }
    c.set("parsedBody", parsed);
    await next();
  };
}
