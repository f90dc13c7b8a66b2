// Format section 8, rules 1 and 7: a step id names the step to later steps
// (`steps.<id>`), a gate id names the gate in reports, a call id names the
// call to later calls (`responses.<id>`): each is unique where it is read.
import type { Rule } from "./rule.js";

export const uniqueIds: Rule = {
  id: "unique-ids",
  severity: "error",
  description: "A step id, a gate id within a step, or a call id within a mechanical step is used twice.",
  check({ doc, report }) {
    const stepIds = new Set<string>();
    doc.steps.forEach((step, si) => {
      if (stepIds.has(step.id)) report(["steps", si, "id"], `step id ${step.id} is used by an earlier step`);
      stepIds.add(step.id);
      const callIds = new Set<string>();
      (step.do?.calls ?? []).forEach((call, ci) => {
        if (callIds.has(call.id)) report(["steps", si, "do", "calls", ci, "id"], `call id ${call.id} is used by an earlier call of this step`);
        callIds.add(call.id);
      });
      const gateIds = new Set<string>();
      (step.gates ?? []).forEach((gate, gi) => {
        if (gateIds.has(gate.id)) report(["steps", si, "gates", gi, "id"], `gate id ${gate.id} is used by an earlier gate of this step`);
        gateIds.add(gate.id);
      });
    });
  },
};
