// What the server says about itself in its initialize and server/discover answers. Plain data,
// shared by the SDK server (src/mcp/server.ts) and the stdio early answers
// (src/stdio/early.ts), which must write the SDK's bytes without loading it.
import { SERVER_INSTRUCTIONS } from "./instructions.js";

export const SERVER_NAME = "stepgate";

/** A fresh object each time: the SDK keeps and merges into what it is given. */
export function serverCapabilities() {
  return { tools: { listChanged: true }, resources: { listChanged: true }, logging: {} };
}

/**
 * The SDK Server's initialize result for these options as JSON: its
 * _oninitialize builds protocolVersion, capabilities, serverInfo,
 * instructions in this order, and the stdio transport writes JSON.stringify
 * of it (test/cli/stdio-early.test.ts holds the two equal byte for byte).
 */
export function initializeResultJson(protocolVersion: string, version: string): string {
  return JSON.stringify({ protocolVersion, capabilities: serverCapabilities(), serverInfo: { name: SERVER_NAME, version }, instructions: SERVER_INSTRUCTIONS });
}

/** The revisions the SDK answers server/discover with (its MODERN_PROTOCOL_VERSIONS; test/cli/stdio-early.test.ts holds the bytes equal). */
export const DISCOVER_VERSIONS: readonly string[] = ["2026-07-28"];

/**
 * The SDK Server's server/discover result (2026-07-28) as JSON, in the order
 * the SDK builds it: supportedVersions, capabilities, instructions, then the
 * cacheable-result fields and serverInfo in `_meta`.
 */
export function discoverResultJson(version: string): string {
  return JSON.stringify({
    supportedVersions: DISCOVER_VERSIONS,
    capabilities: serverCapabilities(),
    instructions: SERVER_INSTRUCTIONS,
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "private",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: SERVER_NAME, version } },
  });
}
