// An MCP tool exposes a name its server's tools/list does not have: preflight
// refuses the stepfile (src/tools/mcp-tool.ts: "<url> lists no tool named
// ..."), so every run would fail before its first step. The MCP twin of
// exposes-in-document, but a warning, not an error: an error is a rule of
// the format, judged from the file alone, and this is judged from what the
// server answered a check (src/loader/findings.ts lists it, with no
// credential), which is not in the file and may differ by the time a run
// starts (a server adds the tool, or lists more to a signed-in caller), as
// agent-write's judgement of an MCP tool is a warning for the same reason.
// A server that was not listed says nothing here.
import { closestNames } from "../../format/closest-names.js";
import { exposedName } from "../../format/types.js";
import type { Rule } from "./rule.js";

/** How many listed names a finding shows when none is near the one written. */
const SHOWN = 12;

export const exposesInMcpListing: Rule = {
  id: "exposes-in-mcp-listing",
  severity: "warning",
  description: "An MCP tool exposes a name that its server's tools/list (read by --check or stepgate_validate) does not have, so preflight would refuse the stepfile and every run would fail before its first step.",
  check({ doc, facts, report }) {
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const listed = facts.mcpListings.get(toolId);
      const url = tool.mcp?.url;
      if (url === undefined || !listed) continue;
      const names = listed.map((t) => t.name);
      (tool.exposes ?? []).forEach((exposed, i) => {
        const name = exposedName(exposed);
        if (names.includes(name)) return;
        const near = closestNames(name, names);
        const hint = near.length > 0 ? `; did you mean ${near.join(" or ")}?` : names.length === 0 ? "; it lists no tools at all" : ` (it lists ${names.slice(0, SHOWN).join(", ")}${names.length > SHOWN ? ", ..." : ""})`;
        report(["tools", toolId, "exposes", i], `tool ${toolId}'s MCP server (${url}) lists no tool named ${name}, so preflight would refuse the stepfile and every run would fail before its first step${hint}`);
      });
    }
  },
};
