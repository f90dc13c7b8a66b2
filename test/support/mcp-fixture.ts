// A remote MCP server on loopback, the shape Stepgate's `mcp` tools talk to:
// Streamable HTTP, stateless, JSON responses, POST only, behind a bearer
// token. Built from the SDK's own server so tests meet a real peer.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { flattenHeaders, type ReceivedRequest } from "./api-fixture.js";
import { listenLoopback, readBody } from "./listen.js";

export interface McpFixtureTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** Every call is answered with this text as one text content block. */
  text: string;
  /** The tool's annotations (readOnlyHint and the rest), listed as given. */
  annotations?: Record<string, unknown>;
  /** Listed as the tool's outputSchema (MCP 2025-06-18); its calls then also answer `text` parsed as structuredContent, as the spec asks. */
  outputSchema?: Record<string, unknown>;
}

export interface McpFixtureOptions {
  /**
   * The one bearer token accepted, or a check (an OAuth resource server asks
   * its authorization server). Without one, every request is served.
   */
  token?: string | ((token: string) => boolean | Promise<boolean>);
  tools: readonly McpFixtureTool[];
  /** Sent with each 401 as WWW-Authenticate (default "Bearer"). */
  challenge?: string;
  /** RFC 9728 metadata served without a token at /.well-known/oauth-protected-resource/mcp, as given. */
  resourceMetadata?: Record<string, unknown>;
  /** Or: serve RFC 9728 metadata for /mcp naming these authorization servers. */
  authorizationServers?: readonly string[];
  /** Serve that metadata only at the root well-known URL (/.well-known/oauth-protected-resource), not the path-inserted one. */
  resourceMetadataAtRoot?: boolean;
}

export interface McpFixture {
  origin: string;
  host: string;
  port: number;
  /** Every HTTP request received, including refused ones. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startMcpFixture(options: McpFixtureOptions): Promise<McpFixture> {
  const received: ReceivedRequest[] = [];
  let origin = "";

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: String(error) }));
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? "GET";
    received.push({ method, path: req.url ?? "/", headers: flattenHeaders(req), body: body.toString("utf8") });
    const metadata = options.resourceMetadata ?? (options.authorizationServers && { resource: `${origin}/mcp`, authorization_servers: options.authorizationServers, bearer_methods_supported: ["header"] });
    const metadataPath = options.resourceMetadataAtRoot ? "/.well-known/oauth-protected-resource" : "/.well-known/oauth-protected-resource/mcp";
    if (metadata && method === "GET" && req.url === metadataPath) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(metadata));
      return;
    }
    if (!(await authorised(req.headers.authorization))) {
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": options.challenge ?? "Bearer" });
      res.end(JSON.stringify({ error: "unauthorised" }));
      return;
    }
    // Stateless JSON mode has no standalone SSE stream or session to delete.
    if (method !== "POST") {
      res.writeHead(405, { allow: "POST" });
      res.end();
      return;
    }
    const request = new Request(new URL(req.url ?? "/", origin), { method, headers: flattenHeaders(req), body });
    const response = await answer(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function authorised(header: string | undefined): Promise<boolean> {
    if (options.token === undefined) return true;
    const token = /^Bearer (.+)$/.exec(header ?? "")?.[1];
    if (token === undefined) return false;
    return typeof options.token === "string" ? token === options.token : options.token(token);
  }

  // Stateless: a fresh server and transport per request, as the SDK advises.
  async function answer(request: Request): Promise<Response> {
    const mcp = new Server({ name: "fixture", version: "0.0.0" }, { capabilities: { tools: {} } });
    mcp.setRequestHandler("tools/list", () => ({
      tools: options.tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        ...(t.annotations ? { annotations: t.annotations } : {}),
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      })) as never,
    }));
    mcp.setRequestHandler("tools/call", (call) => {
      const tool = options.tools.find((t) => t.name === call.params.name);
      if (!tool) return { content: [{ type: "text" as const, text: `unknown tool ${call.params.name}` }], isError: true };
      return { content: [{ type: "text" as const, text: tool.text }], ...(tool.outputSchema ? { structuredContent: JSON.parse(tool.text) as Record<string, unknown> } : {}) };
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await mcp.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await mcp.close().catch(() => undefined);
    }
  }

  const listening = await listenLoopback(server);
  origin = listening.origin;
  return { origin, host: listening.host, port: listening.port, received, close: listening.close };
}
