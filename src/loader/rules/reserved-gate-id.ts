// Stepgate reports its own shape checks as gates named produces and derive;
// a gate of the author's with one of those ids cannot be told apart in a report.
import type { Rule } from "./rule.js";

export const reservedGateId: Rule = {
  id: "reserved-gate-id",
  severity: "warning",
  description: "A gate's id is produces or derive, the names Stepgate reports its own checks under.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      (step.gates ?? []).forEach((gate, gi) => {
        if (gate.id === "produces" || gate.id === "derive") report(["steps", si, "gates", gi, "id"], `gate id ${gate.id} is also the name Stepgate reports its own ${gate.id} check under, so the two cannot be told apart`);
      });
    });
  },
};
