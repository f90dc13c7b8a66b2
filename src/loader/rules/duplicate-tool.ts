// A name listed twice in a step's tools is offered once; the second is noise
// that usually stands where another operation was meant.
import type { Rule } from "./rule.js";

export const duplicateTool: Rule = {
  id: "duplicate-tool",
  severity: "warning",
  description: "An agent step's tools lists the same operation more than once.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      const listed = new Set<string>();
      (step.tools ?? []).forEach((name, ti) => {
        if (listed.has(name)) report(["steps", si, "tools", ti], `${name} is listed more than once`);
        listed.add(name);
      });
    });
  },
};
