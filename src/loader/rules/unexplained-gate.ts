// A failing predicate gate tells the agent its message and whatever explain
// (or the predicate's own shape) adds; with neither, the agent retries blind.
import { explainsItself } from "../../expr/index.js";
import type { Rule } from "./rule.js";

export const unexplainedGate: Rule = {
  id: "unexplained-gate",
  severity: "warning",
  description: "A predicate gate of an agent step has no explain and a predicate whose shape explains nothing, so a failing submission is told only the message.",
  check({ doc, report }) {
    doc.steps.forEach((step, si) => {
      if (step.do) return;
      (step.gates ?? []).forEach((gate, gi) => {
        if (gate.predicate === undefined || gate.explain !== undefined || typeof gate.predicate === "string" || explainsItself(gate.predicate)) return;
        report(
          ["steps", si, "gates", gi, "predicate"],
          `gate ${gate.id} has no explain and its predicate's shape explains nothing, so a failing submission is told only "${gate.message ?? ""}"; add explain (an expression whose value says what is wrong), or use a shape that explains itself (subset, ==, none over join)`,
        );
      });
    });
  },
};
