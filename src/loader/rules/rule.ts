// What a rule is, and what its check is given. Laid out as ESLint's rules
// and Spectral's rulesets are (an id, a description, the check), so one
// file holds everything about one kind of finding. The table of every rule
// is index.ts; the one pass that runs them is run.ts.
import type { PathSegment } from "../../format/source.js";
import type { StepfileDocument } from "../../format/types.js";
import type { RawIssue } from "../raw-issue.js";
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

/**
 * A rule whose check reads the parsed document: the one pass (run.ts) calls
 * it once per stepfile. Errors run on every load, before the compile (a
 * stepfile that breaks one does not load); warnings run once a file passed
 * every error (when serving, after the first tools/list answer).
 */
export interface Rule extends RuleInfo {
  /** Whether the check reads the file's OpenAPI operations (context.facts): it does not run against a pinned document that was not fetched, and that finding names it. */
  readonly readsOperations?: true;
  check(context: RuleContext): void;
}

/**
 * A rule whose finding is the load's own work failing, so it cannot run as
 * a check of a parsed document: reading the file (`file-size`), parsing it
 * (`syntax`, `duplicate-json-key`, `flow-key-without-value`), the structure schema every later check
 * relies on (`structure`), compiling schemas and predicates (`schema`), and
 * fetching a pinned document (`pinned-document-unchecked`), listing an MCP
 * server (`mcp-tools-unlisted`), and reading or
 * converting an Arazzo document (`arazzo-schema`, `arazzo-unconvertible`,
 * `arazzo-unvalidated`). Its file holds
 * its id, description and severity and, where the stage allows, the check
 * itself; `stage` names the step of the load that reports it. Running it
 * apart from that step would mean a second read, parse or compile.
 */
export interface StageRule extends RuleInfo {
  /** `convert`: an Arazzo document's reading or conversion (src/arazzo/), before its workflows load as stepfiles. */
  readonly stage: "read" | "parse" | "structure" | "compile" | "fetch" | "convert";
}

export interface RuleContext {
  readonly doc: StepfileDocument;
  /** What every rule may read of the file, computed once for all of them (the OpenAPI operations, the path walk, the expression walk). */
  readonly facts: FileFacts;
  /** Report a finding of this rule at `path`; `atKey` points at the key of its last segment rather than its value. */
  report(path: PathSegment[], message: string, atKey?: boolean): void;
  /** Report each finding a shared walk made for this rule (facts.expressions, facts.paths), at its path. */
  reportAll(issues: Iterable<RawIssue>): void;
}
