// DNS-rebinding guard, part one. A page on evil.example whose name is rebound
// to 127.0.0.1 still sends `Host: evil.example:<port>`, so accepting only
// loopback names stops it before any MCP handling.
//
// Accepted names are exactly `localhost`, `127.0.0.1` and `[::1]` (case-
// insensitive), and the port must be the one we are bound to. Other 127.x
// addresses are refused: the server binds 127.0.0.1 only, so a request naming
// 127.0.0.2 was not addressed to us directly. A Host without a port means
// port 80 and is refused unless that is our port.
import type { MiddlewareHandler } from "hono";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

export interface LoopbackHostOptions {
  /** The port the server listens on; a getter when it is known only after listening. */
  port: number | (() => number);
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);
// name (bracketed IPv6 or anything without a colon), then an optional port.
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i;

/** Whether a `Host` header value names a loopback address at `port`. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  const match = host === undefined ? null : HOST_HEADER.exec(host);
  if (!match) return false;
  const name = (match[1] ?? "").toLowerCase();
  const hostPort = match[2] === undefined ? 80 : Number(match[2]);
  return LOOPBACK_NAMES.has(name) && hostPort === port;
}

/** The refusal's message, shared with the server's check of Hosts that cannot form a URL. */
export const FORBIDDEN_HOST = "Forbidden: Host is not a loopback address of this server";

/**
 * Refuses (403) any request whose `Host` is not a loopback name with the bound port.
 *
 * @example
 * app.use("/mcp", loopbackHost({ port: () => boundPort }));
 */
export function loopbackHost(options: LoopbackHostOptions): MiddlewareHandler {
  const portOf = typeof options.port === "number" ? () => options.port as number : options.port;
  return async function loopbackHost(c, next) {
    if (!isLoopbackHost(c.req.header("host"), portOf())) {
      return jsonRpcError(c, 403, JsonRpcCode.Refused, FORBIDDEN_HOST);
    }
    await next();
  };
}
