// `let.<name>` and `responses.<id>` are dotted paths: a name with a dot (or
// none at all) can never be one segment of them, so nothing can read it.
import type { Rule } from "./rule.js";

export const unreachableName: Rule = {
  id: "unreachable-name",
  severity: "warning",
  description: "A let entry or a mechanical call has a name that is empty or holds a dot, so no let.<name> or responses.<id> path can read it.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      for (const name of Object.keys(step.let ?? {})) {
        if (unreachable(name)) report(["steps", si, "let", name], `no let.<name> path can read a let entry named ${JSON.stringify(name)} (empty, or with a dot)`, true);
      }
      (step.do?.calls ?? []).forEach((call, ci) => {
        if (unreachable(call.id)) report(["steps", si, "do", "calls", ci, "id"], `no responses.<id> path can read a call with id ${JSON.stringify(call.id)} (empty, or with a dot)`);
      });
    });
  },
};

/** A name a dotted `var` path cannot reach as one segment. */
function unreachable(name: string): boolean {
  return name === "" || name.includes(".");
}
