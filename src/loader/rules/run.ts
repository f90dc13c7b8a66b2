// The one pass: every rule of the table (index.ts) over one stepfile that
// passed the refusals, each finding tagged with its rule's id.
import type { RawIssue } from "../../format/rules.js";
import type { StepfileDocument } from "../../format/types.js";
import { FileFacts } from "./facts.js";
import { RULES } from "./index.js";
import type { RuleContext } from "./rule.js";

export function runRules(doc: StepfileDocument): RawIssue[] {
  const found: RawIssue[] = [];
  const facts = new FileFacts(doc);
  for (const rule of RULES) {
    const context: RuleContext = {
      doc,
      facts,
      report: (path, message, atKey) => found.push({ path, message, warning: true, rule: rule.id, ...(atKey ? { atKey } : {}) }),
    };
    rule.check(context);
  }
  return found;
}
