// The HTTP app without a socket: guards first (Host, Origin, the bearer
// token when one is set, body limit, JSON depth, JSON), in the order that
// refuses cheapest first and never lets an unchecked request reach MCP
// handling. Every /mcp request, whatever its method, goes through them.
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { bearerToken } from "../../middleware/bearer-token.js";
import type { IncomingMessage } from "node:http";
import { bodyLimit, ClientClosed } from "../../middleware/body-limit.js";
import { jsonRpcError, JsonRpcCode } from "../../middleware/json-rpc-error.js";
import { jsonBody } from "../../middleware/json-body.js";
import { jsonDepth } from "../../middleware/json-depth.js";
import { loopbackHost } from "../../middleware/loopback-host.js";
import { loopbackOrigin } from "../../middleware/loopback-origin.js";
import { refusalLog } from "../../middleware/refusal-log.js";
import { mcpRoute, type McpEnv } from "../../routes/mcp.js";
import type { McpServerFactory } from "../mcp/factory-types.js";
import type { SessionStore } from "./sessions.js";

export interface HttpAppOptions {
  factory: McpServerFactory;
  sessions: SessionStore;
  /** The bound port, read per request by the Host guard. */
  port: () => number;
  log?: (line: string) => void;
  maxBodyBytes?: number;
  /** With a token, every request must carry `Authorization: Bearer <token>` (--http-token-file). */
  token?: string;
  /** Why a request's connection is gone before its answer, for the log (see middleware/refusal-log.ts). */
  gone?: (incoming: IncomingMessage) => string | undefined;
}

export function createHttpApp(options: HttpAppOptions): { app: Hono<McpEnv>; close(): Promise<void> } {
  const app = new Hono<McpEnv>();
  const gone = options.gone;
  if (options.log) app.use(refusalLog({ log: options.log, ...(gone ? { gone: (c) => (c.env?.incoming ? gone(c.env.incoming) : undefined) } : {}) }));
  app.use(loopbackHost({ port: options.port }));
  app.use(loopbackOrigin());
  if (options.token !== undefined) app.use(bearerToken({ token: options.token }));
  app.use(bodyLimit(options.maxBodyBytes !== undefined ? { maxBytes: options.maxBodyBytes } : {}));
  app.use(jsonDepth());
  app.use(jsonBody());
  const mcp = mcpRoute(options);
  app.route("/mcp", mcp.app);
  // Even a failure inside MCP handling reaches the client as JSON-RPC, and
  // never with a stack trace: the message goes to the log only.
  app.onError((error, c) => {
    // A guard's refusal thrown the Hono way (the bearer token's 401) carries its own answer.
    if (error instanceof HTTPException) return error.getResponse();
    // Nobody to answer: the refusal log says what happened, and no status is sent.
    if (error instanceof ClientClosed) return c.body(null, 499 as never);
    options.log?.(`error: ${error instanceof Error ? error.message : String(error)}`);
    return jsonRpcError(c, 500, JsonRpcCode.InternalError, "Internal error");
  });
  app.notFound((c) => jsonRpcError(c, 404, JsonRpcCode.InvalidRequest, "Not Found: the MCP endpoint is /mcp"));
  return { app, close: mcp.close };
}
