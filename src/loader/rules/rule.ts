// What a rule is, and what its check is given. Laid out as ESLint's rules
// and Spectral's rulesets are (an id, a description, the check), so one
// file holds everything about one kind of finding. The table of every rule
// is index.ts; the one pass that runs them is run.ts.
import type { PathSegment } from "../../format/source.js";
import type { StepfileDocument } from "../../format/types.js";
import type { FileFacts } from "./facts.js";

export type Severity = "error" | "warning";

export interface RuleInfo {
  /** Lowercase words joined by hyphens; what `--ignore`, `--json`'s `rule` and SARIF's `ruleId` carry. */
  readonly id: string;
  /** One sentence: what the rule finds and why it matters (SARIF's shortDescription, docs/checks.md). */
  readonly description: string;
  /** An error refuses the file (a rule of the format); a warning is a likely mistake the format allows. */
  readonly severity: Severity;
}

/** A rule whose check is here: the one pass (run.ts) calls it once per stepfile that passed every refusal. */
export interface Rule extends RuleInfo {
  readonly severity: "warning";
  /** Whether the check reads the file's OpenAPI operations (context.facts): it does not run against a pinned document that was not fetched, and that finding names it. */
  readonly readsOperations?: true;
  check(context: RuleContext): void;
}

/**
 * A rule another pass finds, for a reason that pass's comment gives: the
 * parser (`syntax`, `duplicate-json-key`), the structure schema, the
 * format's cross-field rules (src/format/rules.ts) and the expression
 * checks (src/expr/check.ts), which must run before the compile, or see
 * what no stepfile document holds any more. That pass tags each finding
 * with this id; `reportedBy` names it.
 */
export interface ReportedRule extends RuleInfo {
  readonly reportedBy: string;
}

export interface RuleContext {
  readonly doc: StepfileDocument;
  /** What every rule may read of the file, computed once for all of them (the OpenAPI operations, the path walk). */
  readonly facts: FileFacts;
  /** Report a finding of this rule at `path`; `atKey` points at the key of its last segment rather than its value. */
  report(path: PathSegment[], message: string, atKey?: true): void;
}
