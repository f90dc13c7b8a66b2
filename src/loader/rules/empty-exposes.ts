// An OpenAPI or MCP tool with `exposes: []` loads, but offers nothing to any step.
import { toolKind } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const emptyExposes: Rule = {
  id: "empty-exposes",
  severity: "warning",
  description: "An openapi or mcp tool's exposes is an empty list, so the tool offers no operation.",
  check({ doc, report }) {
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const kind = toolKind(tool);
      if (kind !== "verifier" && tool.exposes?.length === 0) report(["tools", toolId, "exposes"], `exposes is empty, so this ${kind} tool offers no operation`);
    }
  },
};
