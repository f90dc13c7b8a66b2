// Format section 8, rules 3 and 7: an operation named by a step's tools or a
// mechanical call must be one some tool exposes, or nothing can be called.
import type { Rule } from "./rule.js";

export const exposedOperation: Rule = {
  id: "exposed-operation",
  severity: "error",
  description: "A step's tools, or a mechanical call's operation, names an operation no tool exposes.",
  check({ doc, facts, report }) {
    const exposed = facts.exposedBy;
    doc.steps.forEach((step, si) => {
      (step.do?.calls ?? []).forEach((call, ci) => {
        if (!exposed.has(call.operation)) report(["steps", si, "do", "calls", ci, "operation"], `${call.operation} is not exposed by any tool`);
      });
      (step.tools ?? []).forEach((name, ti) => {
        if (!exposed.has(name)) report(["steps", si, "tools", ti], `${name} is not exposed by any tool`);
      });
    });
  },
};
