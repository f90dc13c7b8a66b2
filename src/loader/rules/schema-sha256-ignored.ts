// schema_sha256 pins a remote MCP tool's input schema; OpenAPI operations
// are pinned by their document's sha256, so on them it pins nothing.
import { toolKind } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const schemaSha256Ignored: Rule = {
  id: "schema-sha256-ignored",
  severity: "warning",
  description: "An exposes entry of a tool that is not an MCP tool has schema_sha256, which only MCP tools use.",
  check({ doc, report }) {
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const kind = toolKind(tool);
      (tool.exposes ?? []).forEach((e, i) => {
        if (typeof e !== "string" && e.schema_sha256 !== undefined && kind !== "mcp") report(["tools", toolId, "exposes", i, "schema_sha256"], `schema_sha256 pins only MCP tools; on an ${kind} tool it is ignored`);
      });
    }
  },
};
