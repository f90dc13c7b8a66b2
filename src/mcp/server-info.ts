// What the server says about itself in its initialize and server/discover
// answers, and the fields the 2026-07-28 revision adds to a result. Plain data,
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
 * revision's result fields (modernResultJson).
 */
export function discoverResultJson(version: string): string {
  return modernResultJson(JSON.stringify({ supportedVersions: DISCOVER_VERSIONS, capabilities: serverCapabilities(), instructions: SERVER_INSTRUCTIONS }), version);
}

/**
 * A handler's result (`resultJson`, a JSON object with at least one key and
 * none of the keys added here) as the SDK sends it on 2026-07-28 for a
 * cacheable method such as tools/list or server/discover: its encode
 * contract appends `resultType` "complete", then `ttlMs` and `cacheScope`
 * (the defaults 0 and "private": the factory configures no cache hint),
 * then `_meta` with the server's identity, in that order (stampResultType,
 * fillCacheFields and stampServerInfoMeta in @modelcontextprotocol/server
 * 2.4.0's rev2026-07-28 encodeContract; test/cli/stdio-early.test.ts holds
 * the bytes equal to the SDK's).
 */
export function modernResultJson(resultJson: string, version: string): string {
  const fields = JSON.stringify({ resultType: "complete", ttlMs: 0, cacheScope: "private", _meta: { "io.modelcontextprotocol/serverInfo": { name: SERVER_NAME, version } } });
  return `${resultJson.slice(0, -1)},${fields.slice(1)}`;
}
