// A remote MCP tool over Streamable HTTP, with the SDK's client: every byte
// goes through egress (egressFetch), the bearer credential only to its hosts.
// Preflight connects, checks the exposed tools exist and their pinned
// schemas match (RFC 8785 of the listed input schema).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { InvalidGrant, PreflightFailed } from "../errors.js";
import { hashJson } from "../format/identity.js";
import { exposedName, type Exposed } from "../format/types.js";
import { egressFetch, type CredentialRef, type EgressPolicy } from "../egress/index.js";
import type { Operation } from "./toolbox.js";
import { outcomeFacts } from "./toolbox.js";

export async function openMcpTool(
  tool: string,
  url: string,
  exposes: readonly Exposed[],
  credential: CredentialRef | undefined,
  policy: EgressPolicy,
): Promise<{ operations: Map<string, Omit<Operation, "validate" | "select">>; close: () => Promise<void> }> {
  const bearer = credential && { ...credential, placement: { in: "bearer" as const } };
  const client = new Client({ name: "stepgate", version: "1" });
  // The transport's fetch is fixed at connect, but a retry during a call
  // belongs to the step making it: each call points `retries` at its own
  // sink for its duration (a run makes one call at a time), and preflight's
  // sink takes retries outside calls.
  let retries = policy.onRetry;
  const fetchPolicy: EgressPolicy = { ...policy, onRetry: (record) => retries?.(record) };
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: egressFetch(fetchPolicy, bearer, tool) });
  let listed: Array<{ name: string; description?: string; inputSchema: Record<string, unknown> }>;
  try {
    await client.connect(transport);
    listed = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      listed.push(...(page.tools as typeof listed));
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    await client.close().catch(() => undefined);
    // A revoked grant is the seed's InvalidGrant wherever it is found, not a tool's fault.
    if (error instanceof InvalidGrant) throw error;
    throw new PreflightFailed(`tool ${tool}`, `could not list the tools of ${url}: ${(error as Error).message}`);
  }
  const operations = new Map<string, Omit<Operation, "validate" | "select">>();
  for (const exposed of exposes) {
    const name = exposedName(exposed);
    const found = listed.find((t) => t.name === name);
    if (!found) {
      await client.close().catch(() => undefined);
      throw new PreflightFailed(`tool ${tool}`, `${url} lists no tool named ${name}`);
    }
    const pin = typeof exposed === "object" ? exposed.schema_sha256 : undefined;
    if (pin && hashJson(found.inputSchema) !== pin) {
      await client.close().catch(() => undefined);
      throw new PreflightFailed(`tool ${tool}`, `the input schema of ${name} changed: pinned ${pin}, listed ${hashJson(found.inputSchema)}`);
    }
    operations.set(name, {
      tool,
      view: { name, ...(found.description ? { description: found.description } : {}), inputSchema: found.inputSchema },
      async call(args, callPolicy) {
        const started = performance.now();
        // Named after the operation, as an OpenAPI call's retries are.
        retries = (record) => callPolicy.onRetry?.({ ...record, operation: name });
        let result: { content?: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };
        try {
          result = (await client.callTool({ name, arguments: args })) as typeof result;
        } finally {
          retries = policy.onRetry;
        }
        const text = (result.content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
        return {
          result: result.structuredContent ?? parseJson(text),
          text,
          isError: result.isError === true,
          tool,
          host: new URL(url).host,
          status: null,
          durationMs: Math.round(performance.now() - started),
          credential: bearer?.name ?? null,
          ...outcomeFacts(JSON.stringify(result)),
        };
      },
    });
  }
  return { operations, close: () => client.close() };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
