// Format section 8, rule 7: a step is an agent step (instructions, judged by
// at least one gate) or a mechanical step (do: Stepgate makes the calls, so
// nothing of the agent's, tools, retries, derive or let, applies).
import type { Rule } from "./rule.js";

export const stepKind: Rule = {
  id: "step-kind",
  severity: "error",
  description: "A step has both or neither of instructions and do, an agent step has no gate, or a mechanical step has tools, retries, derive or let.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      if ((step.instructions === undefined) === (step.do === undefined)) report(["steps", si], "a step has exactly one of instructions and do");
      if (step.do !== undefined) {
        for (const field of ["tools", "retries", "derive", "let"] as const) {
          if (step[field] !== undefined) report(["steps", si, field], `a mechanical step (with do) may not have ${field}`);
        }
      } else if ((step.gates ?? []).length === 0) report(["steps", si, "gates"], "an agent step needs at least one gate");
    });
  },
};
