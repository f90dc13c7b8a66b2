// Every tool an MCP server lists, page by page (tools/list's nextCursor):
// what preflight checks exposed names against, what stepgate_inspect_api
// shows and what a check judges writes, exposed names and result paths by.
import type { Client } from "@modelcontextprotocol/client";

type RequestOptions = Parameters<Client["listTools"]>[1];

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: unknown };
  /** MCP 2025-06-18 on: the JSON Schema a result's structuredContent conforms to, when the tool declares one. */
  outputSchema?: Record<string, unknown>;
}

export async function listAllTools(client: Client, options?: RequestOptions): Promise<ListedTool[]> {
  const listed: ListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, options);
    listed.push(...(page.tools as ListedTool[]));
    cursor = page.nextCursor;
  } while (cursor);
  return listed;
}
