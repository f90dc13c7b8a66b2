// What the server says about itself in its initialize answer. Plain data,
// shared by the SDK server (src/mcp/server.ts) and the stdio early answers
// (src/stdio-early.ts), which must write the SDK's bytes without loading it.
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
