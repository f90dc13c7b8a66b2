// Format section 8, rule 8: derive computes properties of the step's
// output, so each key is one produces declares.
import type { Rule } from "./rule.js";

export const deriveKeys: Rule = {
  id: "derive-keys",
  severity: "error",
  description: "A derive key is not a property of the step's produces.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      const properties = (step.produces.properties ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(step.derive ?? {})) {
        if (!Object.hasOwn(properties, key)) report(["steps", si, "derive", key], `${key} is not a property of produces`);
      }
    });
  },
};
