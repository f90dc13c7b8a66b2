// Format section 8, rule 6: a placeholder in instructions is filled when the
// step starts, so it must be well formed and name what exists by then: an
// input, or an earlier step's output.
import { findPlaceholders, isPlaceholder } from "../../format/placeholders.js";
import type { Rule } from "./rule.js";

export const placeholders: Rule = {
  id: "placeholders",
  severity: "error",
  description: "A placeholder in instructions is malformed, or names a step that is not an earlier step.",
  check({ doc, report }) {
    // Until the end of a step, `earlier` holds exactly the earlier steps (no copy per step: quadratic in steps).
    const earlier = new Set<string>();
    doc.steps.forEach((step, si) => {
      if (step.instructions !== undefined) {
        for (const p of findPlaceholders(step.instructions)) {
          if (!isPlaceholder(p)) report(["steps", si, "instructions"], p.problem);
          else if (p.root === "steps" && !earlier.has(p.path[0]!)) {
            report(["steps", si, "instructions"], `placeholder {{${p.expression}}} names ${p.path[0]}, which is not an earlier step`);
          }
        }
      }
      earlier.add(step.id);
    });
  },
};
