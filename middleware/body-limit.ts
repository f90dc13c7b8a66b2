// The 4 MiB cap must hold for every content type and for chunked bodies: the
// MCP SDK's own limit covers only application/json, so a text/plain or
// chunked body would otherwise be buffered whole. hono's bodyLimit checks a
// declared Content-Length up front and counts streamed bytes otherwise,
// stopping at the first byte over the cap.
import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

export interface BodyLimitOptions {
  /** Largest accepted body in bytes; default 4 MiB. */
  maxBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Refuses (413) any request body larger than `maxBytes`, whatever its content type or framing.
 *
 * @example
 * app.use("/mcp", bodyLimit({ maxBytes: 4 * 1024 * 1024 }));
 */
export function bodyLimit(options: BodyLimitOptions = {}): MiddlewareHandler {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limit = honoBodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of the body is not read, so this connection cannot carry another request.
      c.header("connection", "close");
      return jsonRpcError(c, 413, JsonRpcCode.Refused, `Payload Too Large: the body exceeds ${maxBytes} bytes`);
    },
  });
  return async function bodyLimit(c, next) {
    return limit(c, next);
  };
}
