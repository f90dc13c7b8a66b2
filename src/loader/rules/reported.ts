// The rules whose findings another pass makes, and why it must: the parser
// reads the text (a stepfile that does not parse has no document to check),
// the structure schema and the format's cross-field rules refuse before the
// compile (src/format/rules.ts, src/loader/expression-rules.ts with
// src/expr/check.ts, src/format/canonical-form.ts, src/loader/exposed-operations.ts, src/loader/compile.ts), and two
// warnings come out of the expression checks' own walk, which knows each
// expression's place. Each pass tags its findings with the id given here.
import type { ReportedRule } from "./rule.js";

const format = (rule: number | string) => `src/format/rules.ts (format section 8, rule ${rule})`;

export const REPORTED_RULES: readonly ReportedRule[] = [
  { id: "syntax", severity: "error", reportedBy: "src/format/source.ts", description: "The text is not YAML or JSON Stepgate can read: a syntax error, a key repeated in YAML, or nesting deeper than the limit." },
  { id: "file-size", severity: "error", reportedBy: "src/loader/load.ts", description: "The file is larger than --max-stepfile-bytes." },
  { id: "structure", severity: "error", reportedBy: "src/loader/structure-check.ts (the format's JSON Schema)", description: "A field is unknown, missing, of the wrong type or not one of the values the format allows." },
  { id: "canonical-form", severity: "error", reportedBy: "src/format/canonical-form.ts", description: "A string or key holds a lone UTF-16 surrogate, or a number is NaN or infinite (.nan, .inf, 1e999): canonical JSON (and so the stepfile's identity) cannot hold it." },
  { id: "unique-ids", severity: "error", reportedBy: format("1 and 7"), description: "A step id, a gate id within a step, or a call id within a mechanical step is used twice." },
  { id: "exposed-names", severity: "error", reportedBy: format(2), description: "An exposed name is used by two tools, or is submit." },
  { id: "exposes-in-document", severity: "error", reportedBy: "src/loader/exposed-operations.ts (format section 2)", description: "An OpenAPI tool exposes a name that is no operationId of its inline document." },
  { id: "exposed-operation", severity: "error", reportedBy: format("3 and 7"), description: "A step's tools, or a mechanical call's operation, names an operation no tool exposes." },
  { id: "credentials", severity: "error", reportedBy: format(4), description: "A tool names a credential that is not declared, or whose hosts do not hold the tool's host, or of a kind the tool cannot take; or a credential's fields do not fit its kind." },
  { id: "http-gate-verifier", severity: "error", reportedBy: format(5), description: "An http gate names a tool that is not a verifier." },
  { id: "placeholders", severity: "error", reportedBy: format(6), description: "A placeholder in instructions is malformed, or names a step that is not an earlier step." },
  { id: "step-kind", severity: "error", reportedBy: format(7), description: "A step has both or neither of instructions and do, an agent step has no gate, or a mechanical step has tools, retries, derive or let." },
  { id: "derive-keys", severity: "error", reportedBy: format(8), description: "A derive key is not a property of the step's produces." },
  { id: "tool-kind", severity: "error", reportedBy: format(2), description: "A tool has none or several of openapi, mcp and verifier, lacks exposes (or has them as a verifier), or gives its OpenAPI document other than inline or as url with sha256." },
  { id: "gate-kind", severity: "error", reportedBy: format(7), description: "A gate has none or several of schema, predicate, http and approve, or is a predicate gate without a message." },
  { id: "urls-and-settings", severity: "error", reportedBy: format(12), description: "A URL breaks the URL rules, names a setting that is not declared, or a setting is declared and never used, or its pattern does not compile under RE2." },
  { id: "expression", severity: "error", reportedBy: "src/expr/check.ts (format section 8, rules 6, 9, 10, 11)", description: "An expression uses an unknown operator or a malformed one, reads a step, let entry or call that is not an earlier one, or uses results where it may not." },
  { id: "schema", severity: "error", reportedBy: "src/loader/compile.ts", description: "A schema is not a valid JSON Schema (2020-12), or a predicate does not compile." },
  { id: "sort-direction", severity: "warning", reportedBy: "src/expr/check.ts", description: "sort_by's direction is a literal other than \"asc\" or \"desc\", so sort_by gives null." },
  { id: "item-outside-each", severity: "warning", reportedBy: "src/expr/check.ts", description: "A mechanical step's template reads item outside the arguments of a call with each, where item is not bound." },
  {
    id: "pinned-document-unchecked",
    severity: "warning",
    reportedBy: "src/loader/findings.ts (--check and stepgate_validate only: serving fetches the document at preflight)",
    description: "A tool's OpenAPI document is pinned by url and sha256 and was not fetched (--offline, no network, a refused host, or a digest that does not match), so the checks that read its operations did not run against it.",
  },
  { id: "duplicate-json-key", severity: "warning", reportedBy: "src/format/source.ts", description: "A key is repeated in an object of a JSON text; the last value counts, as JSON.parse reads it." },
];
