// The one pass: the rules of the table (index.ts) of one severity over one
// stepfile, in the table's order, each finding tagged with its rule's id.
// A load runs the errors (every file, before the compile) and then, for a
// file that passed them, the warnings, with the same FileFacts, so what
// rules share (the expression walk, the operations) is computed once.
import type { StepfileDocument } from "../../format/types.js";
import { FileFacts } from "./facts.js";
import { ERROR_RULES, WARNING_RULES } from "./index.js";
import type { RawIssue } from "../raw-issue.js";
import type { RuleContext, Severity } from "./rule.js";

export function runRules(doc: StepfileDocument, severity: Severity, facts = new FileFacts(doc)): RawIssue[] {
  const found: RawIssue[] = [];
  const warning = severity === "warning";
  for (const rule of warning ? WARNING_RULES : ERROR_RULES) {
    const report: RuleContext["report"] = (path, message, atKey) => found.push({ path, message, ...(warning ? { warning: true as const } : {}), rule: rule.id, ...(atKey ? { atKey } : {}) });
    const context: RuleContext = {
      doc,
      facts,
      report,
      reportAll: (issues) => {
        for (const issue of issues) report(issue.path, issue.message, issue.atKey);
      },
    };
    rule.check(context);
  }
  return found;
}
