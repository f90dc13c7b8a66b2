// Likely authoring mistakes that no rule of the format forbids. The format
// says "refuse only what a rule here states: a stricter check is a warning",
// so these never stop a stepfile from loading: the loader reports each once.
// docs/stepfile.md ("What Stepgate refuses") lists them beside the refusals.
import { findPlaceholders } from "./placeholders.js";
import type { RawIssue } from "./rules.js";
import type { PathSegment } from "./source.js";
import type { StepfileDocument } from "./types.js";

export function checkWarnings(doc: StepfileDocument): RawIssue[] {
  const warnings: RawIssue[] = [];
  const warn = (path: PathSegment[], message: string, atKey?: true) => warnings.push({ path, message, warning: true, ...(atKey ? { atKey } : {}) });

  // The format fills placeholders in agent instructions only (section 5.1): anywhere else they are shown as written.
  const verbatim = (path: PathSegment[], text: string | undefined, shown: string) => {
    const found = text === undefined ? [] : findPlaceholders(text);
    if (found.length === 0) return;
    const names = found.map((p) => `{{${p.expression}}}`).join(", ");
    warn(path, `${names} ${found.length === 1 ? "is" : "are"} shown as written: the format fills placeholders only in an agent step's instructions; ${shown}`);
  };
  verbatim(["title"], doc.title, "the title is shown to people as it is");
  verbatim(["description"], doc.description, "clients read the description as the tool's description, as it is");
  for (const [name, setting] of Object.entries(doc.settings ?? {})) {
    if (setting.description.trim() === "") warn(["settings", name, "description"], "the description is empty, so an operator is not told what value to give");
    verbatim(["settings", name, "description"], setting.description, "an operator reads it as it is");
  }
  for (const [name, credential] of Object.entries(doc.credentials ?? {})) verbatim(["credentials", name, "description"], credential.description, "a person reads it as it is before handing over the secret");
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
      verbatim(
        [...at, "gates", gi, "message"],
        gate.message,
        "a failing submission is told this message, then the value of explain (or what the predicate's shape adds); compute the value in explain instead, e.g. explain: { cat: [...] }",
      );
      verbatim(
        [...at, "gates", gi, "approve", "message"],
        gate.approve?.message,
        "the person is shown this message, then the output the step submitted (as JSON), and nothing else of the run; write the message without placeholders and let that output carry the values (add a field to produces for one the person must see)",
      );
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
