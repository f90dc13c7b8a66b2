// DNS-rebinding guard, part two. Browsers send `Origin` on cross-origin and
// on POST requests; a page from a non-loopback origin must not drive the
// server even if it got past the Host check through a proxy or a browser bug.
//
// No Origin passes: non-browser MCP clients (the SDK, curl) send none. A
// loopback origin passes on any port, because local software could reach
// the server directly anyway. `null` (sandboxed frames, file: pages) and any
// unparseable value are refused.
import type { MiddlewareHandler } from "hono";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

export interface LoopbackOriginOptions {
  /** Extra origin host names to allow besides loopback ones (lower case, IPv6 in brackets). */
  allowHostnames?: readonly string[];
}

const LOOPBACK_HOSTNAMES = ["localhost", "127.0.0.1", "[::1]"];

/** Whether an `Origin` value is http(s) on one of `hostnames`. */
export function isAllowedOrigin(origin: string, hostnames: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // WHATWG URL parsing lowercases the host and rejects `[::1].evil.example`;
  // userinfo tricks (`http://localhost@evil.example`) land in `hostname` as evil.example.
  return (url.protocol === "http:" || url.protocol === "https:") && hostnames.has(url.hostname);
}

const LOOPBACK_ORIGIN_HOSTS: ReadonlySet<string> = new Set(LOOPBACK_HOSTNAMES);

/** Whether an `Origin` value passes the default guard (a loopback origin). */
export function isLoopbackOrigin(origin: string): boolean {
  return isAllowedOrigin(origin, LOOPBACK_ORIGIN_HOSTS);
}

/**
 * Refuses (403) a request whose `Origin` header is present and not a loopback origin.
 *
 * @example
 * app.use("/mcp", loopbackOrigin());
 */
export function loopbackOrigin(options: LoopbackOriginOptions = {}): MiddlewareHandler {
  const hostnames = new Set([...LOOPBACK_HOSTNAMES, ...(options.allowHostnames ?? [])]);
  return async function loopbackOrigin(c, next) {
    const origin = c.req.header("origin");
    if (origin !== undefined && !isAllowedOrigin(origin, hostnames)) {
      return jsonRpcError(c, 403, JsonRpcCode.Refused, "Forbidden: Origin is not a loopback origin");
    }
    await next();
  };
}
