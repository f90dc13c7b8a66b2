// The tools an MCP server lists, read outside a run for `stepgate --check`
// and stepgate_validate, so the checks can judge a file's MCP tools by what
// their server says of them: agent-write by readOnlyHint, undeclared-path by
// outputSchema, exposes-in-mcp-listing by the names. The listing preflight
// makes (initialize, then tools/list page by page, through egress to the
// url's host only), but with no credential: a check sends no secret, so a
// server that asks for one is not listed, and the check says so where
// agent-write needed the listing (src/loader/rules/mcp-tools-unlisted.ts;
// the other two checks just do not run). Each request has the load bound
// (src/limits.ts loadFetchMs), as a pinned document's fetch has.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ListedMcpTool } from "../loader/agent-writes.js";
import type { ListMcp } from "../loader/findings.js";
import { isObject } from "../format/json-pointer.js";
import { loadFetchMs } from "../limits.js";
import { egressFetch, type FetchLike } from "../egress/index.js";
import { listAllTools } from "./mcp-list-tools.js";
import { checkedUrl, type PinnedFetchOptions } from "./pinned-documents.js";

export function mcpListings(options: PinnedFetchOptions): ListMcp {
  return async (toolId, doc) => {
    const url = checkedUrl(doc.tools![toolId]!.mcp!.url, doc, options);
    const bound = loadFetchMs(options.policy.timeoutMs);
    const plain = egressFetch({ ...options.policy, totalMs: bound, allowedHosts: new Set([new URL(url).host]) }, undefined, `${toolId} tools/list`);
    let status: number | undefined;
    const fetch: FetchLike = async (input, init) => {
      const response = await plain(input, init);
      if (response.status >= 400) status = response.status;
      return response;
    };
    const client = new Client({ name: "stepgate-check", version: "1" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch }), { timeout: bound });
      return (await listAllTools(client, { timeout: bound })).map(
        (t): ListedMcpTool => ({ name: t.name, readOnly: t.annotations?.readOnlyHint === true, ...(isObject(t.outputSchema) ? { outputSchema: t.outputSchema } : {}) }),
      );
    } catch (error) {
      if (status === 401 || status === 403) throw new Error(`${url} answered HTTP ${status}: it asks for a credential, and a check sends none`, { cause: error });
      throw new Error(`${url}: ${(error as Error).message}`, { cause: error });
    } finally {
      await client.close().catch(() => undefined);
    }
  };
}
