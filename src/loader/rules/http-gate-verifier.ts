// Format section 8, rule 5: an http gate asks a verifier tool for its
// verdict; any other tool has no verdict to give.
import { gateKind } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const httpGateVerifier: Rule = {
  id: "http-gate-verifier",
  severity: "error",
  description: "An http gate names a tool that is not a verifier.",
  check({ doc, report }) {
    const tools = doc.tools ?? {};
    doc.steps.forEach((step, si) => {
      (step.gates ?? []).forEach((gate, gi) => {
        if (gateKind(gate) !== "http") return;
        const tool = gate.http!.tool;
        if (!Object.hasOwn(tools, tool) || tools[tool]!.verifier === undefined) report(["steps", si, "gates", gi, "http", "tool"], `${tool} is not a verifier tool`);
      });
    });
  },
};
