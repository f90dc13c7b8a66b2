// Format section 8, rule 2: an exposed name is what a step's tools and a
// mechanical call name an operation by, so it must be unique across the
// file; `submit` is the tool every agent step already has.
import { exposedName } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const exposedNames: Rule = {
  id: "exposed-names",
  severity: "error",
  description: "An exposed name is used by two tools, or is submit.",
  check({ doc, report }) {
    const exposedBy = new Map<string, string>();
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      (tool.exposes ?? []).forEach((e, i) => {
        const name = exposedName(e);
        if (name === "submit") report(["tools", toolId, "exposes", i], "an exposed name may not be submit");
        const other = exposedBy.get(name);
        if (other !== undefined) report(["tools", toolId, "exposes", i], `${name} is already exposed by tool ${other}`);
        else exposedBy.set(name, toolId);
      });
    }
  },
};
