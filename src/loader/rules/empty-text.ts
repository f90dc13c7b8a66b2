// Text that someone reads (an operator, the agent, a person approving, a
// report), left empty, tells them nothing.
import type { PathSegment } from "../../format/source.js";
import type { Rule } from "./rule.js";

export const emptyText: Rule = {
  id: "empty-text",
  severity: "warning",
  description: "A setting's description, a step's instructions, a gate's id, a gate's message or an approve message is empty, so whoever reads it is told nothing.",
  check({ doc, report }) {
    for (const [name, setting] of Object.entries(doc.settings ?? {})) {
      if (setting.description.trim() === "") report(["settings", name, "description"], "the description is empty, so an operator is not told what value to give");
    }
    doc.steps.forEach((step, si) => {
      const at: PathSegment[] = ["steps", si];
      if (step.instructions !== undefined && step.instructions.trim() === "") report([...at, "instructions"], "the instructions are empty, so the agent is told nothing");
      (step.gates ?? []).forEach((gate, gi) => {
        if (gate.id === "") report([...at, "gates", gi, "id"], "the gate id is empty, so a report cannot name this gate");
        if (gate.message !== undefined && gate.message.trim() === "") report([...at, "gates", gi, "message"], "the message is empty, so a failure explains nothing");
        if (gate.approve !== undefined && gate.approve.message.trim() === "") report([...at, "gates", gi, "approve", "message"], "the message is empty, so the person is not told what to approve");
      });
    });
  },
};
