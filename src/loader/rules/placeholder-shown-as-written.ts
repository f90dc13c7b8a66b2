// The format fills placeholders in agent instructions only (section 5.1):
// anywhere else `{{inputs.x}}` is shown as written, to whoever reads it.
import { findPlaceholders } from "../../format/placeholders.js";
import type { PathSegment } from "../../format/source.js";
import type { Rule } from "./rule.js";

export const placeholderShownAsWritten: Rule = {
  id: "placeholder-shown-as-written",
  severity: "warning",
  description: "A {{placeholder}} outside an agent step's instructions (title, description, a setting's or credential's description, a gate's message, an approve message) is shown as written, never filled.",
  check({ doc, report }) {
    const verbatim = (path: PathSegment[], text: string | undefined, shown: string) => {
      const found = text === undefined ? [] : findPlaceholders(text);
      if (found.length === 0) return;
      const names = found.map((p) => `{{${p.expression}}}`).join(", ");
      report(path, `${names} ${found.length === 1 ? "is" : "are"} shown as written: the format fills placeholders only in an agent step's instructions; ${shown}`);
    };
    verbatim(["title"], doc.title, "the title is shown to people as it is");
    verbatim(["description"], doc.description, "clients read the description as the tool's description, as it is");
    for (const [name, setting] of Object.entries(doc.settings ?? {})) verbatim(["settings", name, "description"], setting.description, "an operator reads it as it is");
    for (const [name, credential] of Object.entries(doc.credentials ?? {})) verbatim(["credentials", name, "description"], credential.description, "a person reads it as it is before handing over the secret");
    doc.steps.forEach((step, si) => {
      (step.gates ?? []).forEach((gate, gi) => {
        const at: PathSegment[] = ["steps", si, "gates", gi];
        verbatim(
          [...at, "message"],
          gate.message,
          "a failing submission is told this message, then the value of explain (or what the predicate's shape adds); compute the value in explain instead, e.g. explain: { cat: [...] }",
        );
        verbatim(
          [...at, "approve", "message"],
          gate.approve?.message,
          "the person is shown this message, then the output the step submitted (as JSON), and nothing else of the run; write the message without placeholders and let that output carry the values (add a field to produces for one the person must see)",
        );
      });
    });
  },
};
