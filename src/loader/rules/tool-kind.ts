// Format section 2: a tool is exactly one of openapi, mcp and verifier; the
// first two offer operations (exposes), a verifier offers none; an OpenAPI
// document is given inline, or fetched by url and pinned by sha256.
import { toolKind } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const toolKindRule: Rule = {
  id: "tool-kind",
  severity: "error",
  description: "A tool has none or several of openapi, mcp and verifier, lacks exposes (or has them as a verifier), or gives its OpenAPI document other than inline or as url with sha256.",
  check({ doc, report }) {
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const at = ["tools", toolId];
      const kind = toolKind(tool);
      if (kind === undefined) {
        const kinds = (["openapi", "mcp", "verifier"] as const).filter((k) => tool[k] !== undefined);
        report(at, kinds.length === 0 ? "a tool needs one of openapi, mcp or verifier" : `a tool has exactly one of openapi, mcp, verifier, not ${kinds.join(" and ")}`);
        continue;
      }
      if (kind === "verifier" && tool.exposes !== undefined) report([...at, "exposes"], "a verifier exposes nothing");
      if (kind !== "verifier" && tool.exposes === undefined) report(at, `an ${kind} tool needs exposes`);
      if (kind === "openapi") {
        const o = tool.openapi!;
        const inline = o.document !== undefined;
        const fetched = o.url !== undefined || o.sha256 !== undefined;
        if (inline === fetched) report([...at, "openapi"], "give either document, or url with sha256");
        else if (fetched && (o.url === undefined || o.sha256 === undefined)) report([...at, "openapi"], "a fetched document needs both url and sha256");
      }
    }
  },
};
