// Every rule Stepgate checks stepfiles with, one table.
//
// How to add a rule:
// 1. Write one file here, named for its id (`my-rule.ts`), exporting a `Rule`
//    (rule.ts): `id` (lowercase words and hyphens, never reused), one-sentence
//    `description`, `severity` ("error" only for a rule the format states:
//    a file that breaks it does not load; "warning" for a likely mistake the
//    format allows), and `check(context)`, which reads `context.doc` (and
//    `context.facts`: the exposed names, the OpenAPI operations, the
//    expression and path walks, computed once for every rule) and calls
//    `context.report(path, message)` for each finding. The message says what
//    is wrong and what to write instead.
// 2. Add one line to ERROR_RULES or WARNING_RULES below. The pass (run.ts)
//    runs it for every stepfile, on load, `--check` and stepgate_validate
//    alike (warnings once the errors passed); `--ignore <id>` turns a
//    warning off for one run.
// 3. Give it a section in docs/checks.md with a wrong and a fixed example
//    (test/docs/checks-doc.test.ts loads both).
// A rule whose finding is the load's own work failing (the read, the parse,
// the structure schema, the compile, a pinned document's fetch, an MCP
// server's listing, an Arazzo
// document's reading and conversion) is a
// StageRule (rule.ts), in STAGE_RULES, reported by that step of the load.
import { closestNames } from "../../format/closest-names.js";
import { agentWrite } from "./agent-write.js";
import { arazzoSchema } from "./arazzo-schema.js";
import { arazzoUnconvertible } from "./arazzo-unconvertible.js";
import { arazzoUnvalidated } from "./arazzo-unvalidated.js";
import { arazzoCredentialParameter } from "./arazzo-credential-parameter.js";
import { callArguments } from "./call-arguments.js";
import { canonicalForm } from "./canonical-form.js";
import { credentialsRule } from "./credentials.js";
import { deriveKeys } from "./derive-keys.js";
import { duplicateJsonKey } from "./duplicate-json-key.js";
import { flowKeyWithoutValue } from "./flow-key-without-value.js";
import { duplicateTool } from "./duplicate-tool.js";
import { emptyExposes } from "./empty-exposes.js";
import { emptyText } from "./empty-text.js";
import { exposedNames } from "./exposed-names.js";
import { exposedOperation } from "./exposed-operation.js";
import { exposesInDocument } from "./exposes-in-document.js";
import { exposesInMcpListing } from "./exposes-in-mcp-listing.js";
import { expression } from "./expression.js";
import { fileSize } from "./file-size.js";
import { gateKindRule } from "./gate-kind.js";
import { httpGateVerifier } from "./http-gate-verifier.js";
import { ignoredGateField } from "./ignored-gate-field.js";
import { itemOutsideEach } from "./item-outside-each.js";
import { mcpToolsUnlisted } from "./mcp-tools-unlisted.js";
import { pinnedDocumentUnchecked } from "./pinned-document-unchecked.js";
import { placeholderShownAsWritten } from "./placeholder-shown-as-written.js";
import { placeholders } from "./placeholders.js";
import { reservedGateId } from "./reserved-gate-id.js";
import type { Rule, RuleInfo, StageRule } from "./rule.js";
import { schema } from "./schema.js";
import { schemaSha256Ignored } from "./schema-sha256-ignored.js";
import { sortDirection } from "./sort-direction.js";
import { stepDataInItemScope } from "./step-data-in-item-scope.js";
import { stepKind } from "./step-kind.js";
import { structure } from "./structure.js";
import { syntax } from "./syntax.js";
import { toolKindRule } from "./tool-kind.js";
import { undeclaredPath } from "./undeclared-path.js";
import { unexplainedGate } from "./unexplained-gate.js";
import { unknownFormat } from "./unknown-format.js";
import { uniqueIds } from "./unique-ids.js";
import { unreachableName } from "./unreachable-name.js";
import { unresolvablePlaceholder } from "./unresolvable-placeholder.js";
import { urlUserInfo } from "./url-user-info.js";
import { urlsAndSettings } from "./urls-and-settings.js";
import { yamlWarning } from "./yaml-warning.js";

/** The rules that refuse a file, run on every load of a file of sound structure, before the compile, in this order. */
export const ERROR_RULES: readonly Rule[] = [
  canonicalForm,
  exposedNames,
  toolKindRule,
  urlsAndSettings,
  credentialsRule,
  uniqueIds,
  stepKind,
  exposedOperation,
  placeholders,
  gateKindRule,
  httpGateVerifier,
  deriveKeys,
  expression,
  exposesInDocument,
];

/** The warnings, run once a file passed every error, in this order (findings are sorted by place after). */
export const WARNING_RULES: readonly Rule[] = [
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
  exposesInMcpListing,
  sortDirection,
  itemOutsideEach,
  unknownFormat,
];

/** The rules the load's own steps report (rule.ts, StageRule), in the order a load meets them. */
export const STAGE_RULES: readonly StageRule[] = [fileSize, syntax, duplicateJsonKey, flowKeyWithoutValue, yamlWarning, structure, schema, pinnedDocumentUnchecked, mcpToolsUnlisted, arazzoSchema, arazzoUnconvertible, arazzoUnvalidated, arazzoCredentialParameter];

/** Every rule that can be reported: what SARIF's tool.driver.rules and docs/checks.md list. */
export const ALL_RULES: readonly RuleInfo[] = [...STAGE_RULES, ...ERROR_RULES, ...WARNING_RULES];

const byId = new Map(ALL_RULES.map((r) => [r.id, r]));

/**
 * Why `id` cannot be turned off for one run (`--ignore`, stepgate_validate's
 * `ignore`), or undefined when it can: only a warning can, since a file that
 * breaks an error does not load.
 */
export function ignoreProblem(id: string): string | undefined {
  const rule = byId.get(id);
  if (rule?.severity === "warning") return undefined;
  if (rule) return `${id} is a refusal (a rule of the format), so a file that breaks it does not load; only warnings can be turned off`;
  const near = closestNames(id, ALL_RULES.filter((r) => r.severity === "warning").map((r) => r.id))[0];
  return `no rule has this id${near ? `; did you mean ${near}?` : ""} (docs/checks.md lists them)`;
}

export function ruleById(id: string): RuleInfo | undefined {
  return byId.get(id);
}
