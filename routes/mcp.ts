// The /mcp endpoint. The guards in middleware/ have already run, so a POST
// body here is parsed JSON within the size limit. Each request goes to the
// 2025 session protocol or to the 2026-07-28 revision by the SDK's own
// classifier, so this route and the SDK can never disagree on the era.
import { Hono } from "hono";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { jsonRpcError, JsonRpcCode } from "../middleware/json-rpc-error.js";
import type { JsonBodyEnv } from "../middleware/json-body.js";
import type { McpServerFactory } from "../src/mcp/factory-types.js";
import { legacySessions } from "../src/http/legacy-sessions.js";
import { modernHandler } from "../src/http/modern.js";
import type { SessionStore } from "../src/http/sessions.js";

export interface McpRouteOptions {
  factory: McpServerFactory;
  sessions: SessionStore;
  log?: (line: string) => void;
}

export interface McpRoute {
  /** Mount with `app.route("/mcp", route.app)`. */
  app: Hono<JsonBodyEnv>;
  /** Abort in-flight 2026 exchanges; sessions are closed by their store. */
  close(): Promise<void>;
}

/**
 * The Streamable HTTP endpoint: POST messages, GET the event stream, DELETE the session.
 *
 * @example
 * const mcp = mcpRoute({ factory, sessions });
 * app.route("/mcp", mcp.app);
 */
export function mcpRoute(options: McpRouteOptions): McpRoute {
  const legacy = legacySessions(options);
  const modern = modernHandler({
    ...options,
    onerror: (error) => options.log?.(`mcp: ${error.message}`),
  });
  const app = new Hono<JsonBodyEnv>();

  app.on(["POST", "GET", "DELETE"], "/", async function mcpEndpoint(c) {
    const parsedBody = c.req.method === "POST" ? c.get("parsedBody") : undefined;
    if (await isLegacyRequest(c.req.raw, parsedBody)) return legacy(c.req.raw, parsedBody);
    return modern.fetch(c.req.raw, parsedBody);
  });
  app.all("/", (c) => {
    c.header("allow", "GET, POST, DELETE");
    return jsonRpcError(c, 405, JsonRpcCode.InvalidRequest, "Method Not Allowed");
  });

  return { app, close: () => modern.close() };
}
