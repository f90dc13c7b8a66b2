// stepgate_inspect_api for an MCP server: its tools with the schema_sha256 a
// stepfile pins (RFC 8785 of the input schema as listed, the same hash
// preflight checks), or, when it demands authorization, the token endpoint
// its authorization server advertises.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { hashJson } from "../format/identity.js";
import { listAllTools } from "../tools/mcp-list-tools.js";
import type { FetchLike } from "../egress/index.js";
import { discoverAuthorization, type McpAuthorization } from "./mcp-auth-metadata.js";
import type { AuthoringOptions } from "./options.js";
import type { PublicUrlCheck } from "./public-url.js";
import { inspectFetch } from "./inspect-policy.js";

export interface InspectedTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  schema_sha256: string;
  /** The server marks it readOnlyHint: true; anything else may change something, and a stepfile that lets an agent call it without effect: read gets agent-write. */
  read_only: boolean;
}

export interface McpInspection {
  kind: "mcp";
  url: string;
  /** Null when the server demands authorization and so cannot be listed without a credential. */
  tools: InspectedTool[] | null;
  authorization?: McpAuthorization;
}

/** Throws when the URL does not speak MCP at all (the caller then reports what it is not). */
export async function inspectMcp(url: URL, requests: AuthoringOptions["requests"], check: PublicUrlCheck): Promise<McpInspection> {
  let challenge: { header: string | undefined } | undefined;
  const base = inspectFetch(requests, [url.host], "inspect mcp");
  const watching: FetchLike = async (input, init) => {
    const response = await base(input, init);
    if (response.status === 401) challenge = { header: response.headers.get("www-authenticate") ?? undefined };
    return response;
  };
  const client = new Client({ name: "stepgate-inspect", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: watching }));
    const tools = (await listAllTools(client)).map((t): InspectedTool => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: t.inputSchema,
      schema_sha256: hashJson(t.inputSchema),
      read_only: t.annotations?.readOnlyHint === true,
    }));
    return { kind: "mcp", url: url.href, tools };
  } catch (error) {
    if (!challenge) throw error;
    return { kind: "mcp", url: url.href, tools: null, authorization: await discoverAuthorization(url, challenge.header, requests, check) };
  } finally {
    await client.close().catch(() => undefined);
  }
}
