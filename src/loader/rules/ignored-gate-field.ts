// message and explain say why a predicate failed; schema, http and approve
// gates say it themselves, so on them the fields are never shown.
import { gateKind } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const ignoredGateField: Rule = {
  id: "ignored-gate-field",
  severity: "warning",
  description: "A schema, http or approve gate has message or explain, which only predicate gates use.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      (step.gates ?? []).forEach((gate, gi) => {
        const kind = gateKind(gate);
        if (kind === "predicate") return;
        if (gate.message !== undefined) report(["steps", si, "gates", gi, "message"], `message belongs to predicate gates; a ${kind} gate ignores it`);
        if (gate.explain !== undefined) report(["steps", si, "gates", gi, "explain"], `explain belongs to predicate gates; a ${kind} gate ignores it`);
      });
    });
  },
};
