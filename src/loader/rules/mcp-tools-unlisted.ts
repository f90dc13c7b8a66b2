// Whether a remote MCP tool changes anything is known only from its
// server's tools/list (readOnlyHint), so agent-write can judge an MCP tool
// in an agent step's tools only once the server is listed. --check and
// stepgate_validate list it (src/loader/findings.ts); when they cannot, this
// finding names the tools that were not judged, never a silence that reads
// as "checked". A tool declared `effect: read` needs no listing.
import type { RawIssue } from "../raw-issue.js";
import type { StageRule } from "./rule.js";

export const mcpToolsUnlisted: StageRule & { finding(toolId: string, url: string, reason: string, names: readonly string[]): RawIssue } = {
  id: "mcp-tools-unlisted",
  severity: "warning",
  stage: "fetch",
  description:
    "An agent step's tools name a remote MCP tool not declared effect: read, and its server's tools/list was not read (--offline, no network, a server that asks for a credential, a refused host), so agent-write could not judge whether the agent may change something through it.",
  finding: (toolId, url, reason, names) => ({
    rule: mcpToolsUnlisted.id,
    warning: true,
    path: ["tools", toolId, "mcp", "url"],
    message:
      `tool ${toolId}'s MCP server ${reason}, so agent-write did not judge ${names.join(", ")}, which an agent step may call with any arguments, any number of times, before any gate of the step: ` +
      `declare { name: ..., effect: read } in exposes for a tool that only reads, call one that changes something from a mechanical step after the step a person approves, or check where ${url} can be listed`,
  }),
};
