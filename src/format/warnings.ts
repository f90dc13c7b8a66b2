// Likely authoring mistakes that no rule of the format forbids. The format
// says "refuse only what a rule here states: a stricter check is a warning",
// so these never stop a stepfile from loading: the loader reports each once.
// docs/stepfile.md ("What Stepgate refuses") lists them beside the refusals.
import type { RawIssue } from "./rules.js";
import type { PathSegment } from "./source.js";
import type { StepfileDocument } from "./types.js";

export function checkWarnings(doc: StepfileDocument): RawIssue[] {
  const warnings: RawIssue[] = [];
  const warn = (path: PathSegment[], message: string, atKey?: true) => warnings.push({ path, message, warning: true, ...(atKey ? { atKey } : {}) });

  for (const [name, setting] of Object.entries(doc.settings ?? {})) {
    if (setting.description.trim() === "") warn(["settings", name, "description"], "the description is empty, so an operator is not told what value to give");
  }
  doc.steps.forEach((step, si) => {
    const at: PathSegment[] = ["steps", si];
    if (step.instructions !== undefined && step.instructions.trim() === "") warn([...at, "instructions"], "the instructions are empty, so the agent is told nothing");
    const listed = new Set<string>();
    (step.tools ?? []).forEach((name, ti) => {
      if (listed.has(name)) warn([...at, "tools", ti], `${name} is listed more than once`);
      listed.add(name);
    });
    (step.gates ?? []).forEach((gate, gi) => {
      if (gate.id === "") warn([...at, "gates", gi, "id"], "the gate id is empty, so a report cannot name this gate");
      if (gate.message !== undefined && gate.message.trim() === "") warn([...at, "gates", gi, "message"], "the message is empty, so a failure explains nothing");
      if (gate.approve !== undefined && gate.approve.message.trim() === "") warn([...at, "gates", gi, "approve", "message"], "the message is empty, so the person is not told what to approve");
    });
    for (const name of Object.keys(step.let ?? {})) {
      if (unreachable(name)) warn([...at, "let", name], `no let.<name> path can read a let entry named ${JSON.stringify(name)} (empty, or with a dot)`, true);
    }
    (step.do?.calls ?? []).forEach((call, ci) => {
      if (unreachable(call.id)) warn([...at, "do", "calls", ci, "id"], `no responses.<id> path can read a call with id ${JSON.stringify(call.id)} (empty, or with a dot)`);
    });
  });
  return warnings;
}

/** A name a dotted `var` path cannot reach as one segment. */
function unreachable(name: string): boolean {
  return name === "" || name.includes(".");
}
