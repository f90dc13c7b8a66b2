// Every rule Stepgate checks stepfiles with, one table.
//
// How to add a rule:
// 1. Write one file here, named for its id (`my-rule.ts`), exporting a `Rule`
//    (rule.ts): `id` (lowercase words and hyphens, never reused), one-sentence
//    `description`, `severity: "warning"` (a refusal is a rule of the format:
//    src/format/rules.ts), and `check(context)`, which reads `context.doc`
//    (and `context.facts`: the OpenAPI operations, the path walk, computed
//    once for every rule) and calls `context.report(path, message)` for each
//    finding. The message says what is wrong and what to write instead.
// 2. Add one line to RULES below. The pass (run.ts) runs it for every
//    stepfile that passed the refusals, on load, `--check` and
//    stepgate_validate alike; `--ignore <id>` turns it off for one run.
// 3. Give it a section in docs/checks.md with a wrong and a fixed example
//    (test/docs/checks-doc.test.ts loads both).
// A finding another pass makes (the parser, the structure, the format's
// rules, the expression checks) is listed in reported.ts instead, with the
// file that reports it.
import { agentWrite } from "./agent-write.js";
import { callArguments } from "./call-arguments.js";
import { duplicateTool } from "./duplicate-tool.js";
import { emptyExposes } from "./empty-exposes.js";
import { emptyText } from "./empty-text.js";
import { ignoredGateField } from "./ignored-gate-field.js";
import { placeholderShownAsWritten } from "./placeholder-shown-as-written.js";
import { REPORTED_RULES } from "./reported.js";
import { reservedGateId } from "./reserved-gate-id.js";
import type { Rule, RuleInfo } from "./rule.js";
import { schemaSha256Ignored } from "./schema-sha256-ignored.js";
import { stepDataInItemScope } from "./step-data-in-item-scope.js";
import { undeclaredPath } from "./undeclared-path.js";
import { unexplainedGate } from "./unexplained-gate.js";
import { unreachableName } from "./unreachable-name.js";
import { unresolvablePlaceholder } from "./unresolvable-placeholder.js";
import { urlUserInfo } from "./url-user-info.js";

/** The rules whose check the pass runs, in the order it runs them (findings are sorted by place after). */
export const RULES: readonly Rule[] = [
  emptyExposes,
  urlUserInfo,
  schemaSha256Ignored,
  reservedGateId,
  ignoredGateField,
  placeholderShownAsWritten,
  emptyText,
  duplicateTool,
  unreachableName,
  undeclaredPath,
  unresolvablePlaceholder,
  stepDataInItemScope,
  callArguments,
  unexplainedGate,
  agentWrite,
];

/** Every rule that can be reported, checked here or by another pass: what SARIF's tool.driver.rules and docs/checks.md list. */
export const ALL_RULES: readonly RuleInfo[] = [...REPORTED_RULES, ...RULES];

const byId = new Map(ALL_RULES.map((r) => [r.id, r]));

export function ruleById(id: string): RuleInfo | undefined {
  return byId.get(id);
}
