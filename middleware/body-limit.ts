// The 4 MiB cap must hold for every content type and for chunked bodies: the
// MCP SDK's own limit covers only application/json, so a text/plain or
// chunked body would otherwise be buffered whole.
//
// Written by hand rather than with hono's bodyLimit because of what a client
// sees: hono's version stops reading at the first byte over the cap and
// cancels the stream, so the connection is torn down while the client is
// still uploading, and a busy client reads a reset instead of the 413. Here
// the rest of an oversized body is read and thrown away (up to a bound), so
// the client finishes sending and then reads the 413.
import type { MiddlewareHandler } from "hono";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

export interface BodyLimitOptions {
  /** Largest accepted body in bytes; default 4 MiB. */
  maxBytes?: number;
  /** How much of an oversized body is drained before giving up on the connection; default 16 × maxBytes. */
  drainBytes?: number;
  /** How long draining may take; default 5 s. */
  drainMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Refuses (413) any request body larger than `maxBytes`, whatever its content type or framing.
 * A body within the limit is read once and handed on unchanged.
 *
 * @example
 * app.use("/mcp", bodyLimit({ maxBytes: 4 * 1024 * 1024 }));
 */
export function bodyLimit(options: BodyLimitOptions = {}): MiddlewareHandler {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const drainBytes = options.drainBytes ?? 16 * maxBytes;
  const drainMs = options.drainMs ?? 5_000;
  return async function bodyLimit(c, next) {
    const body = c.req.raw.body;
    if (body === null) return next();
    const declared = Number(c.req.header("content-length"));
    let over = Number.isFinite(declared) && declared > maxBytes;
    const reader = body.getReader();
    const kept: Uint8Array[] = [];
    let size = 0;
    const deadline = Date.now() + drainMs;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) over = true;
      if (!over) {
        kept.push(value);
        continue;
      }
      if (size > maxBytes + drainBytes || Date.now() > deadline) {
        // Too much to drain: stop reading, and this connection cannot carry another request.
        await reader.cancel().catch(() => undefined);
        c.header("connection", "close");
        return refuse();
      }
    }
    if (over) return refuse();
    c.req.raw = new Request(c.req.raw, { body: concat(kept, size) });
    return next();

    function refuse() {
      return jsonRpcError(c, 413, JsonRpcCode.Refused, `Payload Too Large: the body exceeds ${maxBytes} bytes`);
    }
  };
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
