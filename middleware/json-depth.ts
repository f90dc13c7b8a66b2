// A JSON-RPC body nested a million levels deep fits in 4 MiB, and the SDK's
// validators walk it recursively: long enough to block the event loop and
// reset other clients' connections. This refuses such a body with 400
// before it is parsed or reaches the SDK, by counting brackets in one pass
// over the text (no recursion, no parse). No MCP message needs more than a
// few levels; tool arguments deeper than MAX_JSON_DEPTH are not plausible.
import type { MiddlewareHandler } from "hono";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 64;

export interface JsonDepthOptions {
  maxDepth?: number;
  /** Methods whose bodies are checked; default POST only. */
  methods?: readonly string[];
}

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`.
 * Brackets inside strings do not count; invalid JSON is left to the parser.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Refuses (400) a body nested deeper than `maxDepth` levels.
 *
 * @example
 * app.use(jsonDepth({ maxDepth: 64 }));
 */
export function jsonDepth(options: JsonDepthOptions = {}): MiddlewareHandler {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const methods = new Set(options.methods ?? ["POST"]);
  return async function jsonDepth(c, next) {
    if (methods.has(c.req.method) && nestsDeeperThan(await c.req.text(), maxDepth)) {
      return jsonRpcError(c, 400, JsonRpcCode.InvalidRequest, `Bad Request: the body nests deeper than ${maxDepth} levels`);
    }
    await next();
  };
}
