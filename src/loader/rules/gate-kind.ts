// Format section 7: a gate is exactly one of schema, predicate, http and
// approve; a predicate gate says what failed in its message.
import { gateKind } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const gateKindRule: Rule = {
  id: "gate-kind",
  severity: "error",
  description: "A gate has none or several of schema, predicate, http and approve, or is a predicate gate without a message.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      (step.gates ?? []).forEach((gate, gi) => {
        const kind = gateKind(gate);
        if (kind === undefined) report(["steps", si, "gates", gi], "a gate has exactly one of schema, predicate, http, approve");
        else if (kind === "predicate" && gate.message === undefined) report(["steps", si, "gates", gi], "a predicate gate needs a message");
      });
    });
  },
};
