// The /mcp endpoint. The guards in middleware/ have already run, so a POST
// body here is parsed JSON within the size limit. Each request goes to the
// 2025 session protocol or to the 2026-07-28 revision by the SDK's own
// classifier (classifyInboundRequest, the code isLegacyRequest and the SDK's
// handler run), so this route and the SDK can never disagree on the era.
// A plain tools/list is answered from kept bytes (src/http/tools-list-cache.ts)
// when the factory offers its tools/list JSON and the server is node's.
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { classifyInboundRequest, type InboundClassificationOutcome } from "@modelcontextprotocol/server";
import { jsonRpcError, JsonRpcCode } from "../middleware/json-rpc-error.js";
import type { JsonBodyEnv } from "../middleware/json-body.js";
import type { McpServerFactory } from "../src/mcp/factory-types.js";
import { legacySessions } from "../src/http/legacy-sessions.js";
import { modernHandler } from "../src/http/modern.js";
import type { SessionStore } from "../src/http/sessions.js";
import { toolsListCache } from "../src/http/tools-list-cache.js";

export interface McpRouteOptions {
  factory: McpServerFactory;
  sessions: SessionStore;
  log?: (line: string) => void;
}

export interface McpRoute {
  /** Mount with `app.route("/mcp", route.app)`. */
  app: Hono<McpEnv>;
  /** Abort in-flight 2026 exchanges; sessions are closed by their store. */
  close(): Promise<void>;
}

/** The route's environment: the parsed body from the guards, and node's request and response under @hono/node-server. */
export type McpEnv = JsonBodyEnv & { Bindings: Partial<HttpBindings> };

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
  const toolsListResult = options.factory.toolsListResult?.bind(options.factory);
  const cache = toolsListResult && toolsListCache({ sessions: options.sessions, toolsListResult });
  const app = new Hono<McpEnv>();

  app.on(["POST", "GET", "DELETE"], "/", async function mcpEndpoint(c) {
    const post = c.req.method === "POST";
    const parsedBody = post ? c.get("parsedBody") : undefined;
    const header = (name: string) => c.req.header(name);
    const outgoing = c.env?.outgoing;
    // A plain 2025 tools/list (answerLegacy's checks: the 2025-11-25 header, no
    // params to honour, so no envelope claim) is one the classifier routes
    // legacy: answered before classifying, which validates the message with zod.
    if (post && cache && outgoing && cache.answerLegacy(header, parsedBody, outgoing)) return RESPONSE_ALREADY_SENT;
    const route: InboundClassificationOutcome = classifyInboundRequest({
      httpMethod: c.req.method,
      protocolVersionHeader: header("mcp-protocol-version"),
      mcpMethodHeader: header("mcp-method"),
      mcpNameHeader: header("mcp-name"),
      ...(post ? { body: parsedBody } : {}),
    });
    if (route.kind === "legacy") return legacy(c.req.raw, parsedBody);
    const id = cache && outgoing ? cache.modernId(header, route) : undefined;
    if (id === undefined || !cache || !outgoing) return modern.fetch(c.req.raw, parsedBody);
    const cached = cache.answerModern(id, outgoing);
    if (cached.written) return RESPONSE_ALREADY_SENT;
    return cached.keep(await modern.fetch(c.req.raw, parsedBody));
  });
  app.all("/", (c) => {
    c.header("allow", "GET, POST, DELETE");
    return jsonRpcError(c, 405, JsonRpcCode.InvalidRequest, "Method Not Allowed");
  });

  return { app, close: () => modern.close() };
}
