// `stepgate --check --format sarif`: the findings as one SARIF 2.1.0 log
// (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/), which GitHub code
// scanning and editors read to show each finding in place. Built with
// node-sarif-builder; every rule of src/loader/rules/ is listed in
// tool.driver.rules with its shortDescription and its helpUri (its section
// of docs/checks.md, see ruleHelpUri), each result names its ruleId, its
// level, its message and its region (startLine, startColumn). A file that could not be read or
// named is a tool execution notification, not a result: no rule found it.
import { relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import type { Issue } from "../errors.js";
import { ALL_RULES } from "../loader/rules/index.js";
import type { FileReport } from "./check-report.js";
import { packageVersion } from "./package-root.js";

/** `resolve` gives the file a report's argument names (a catalog name is resolved to its file), or undefined. */
export function sarifLog(reports: readonly FileReport[], resolve: (arg: string) => string | undefined): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "stepgate", toolDriverVersion: packageVersion() });
  for (const rule of ALL_RULES) {
    run.addRule(new SarifRuleBuilder().initSimple({ ruleId: rule.id, shortDescriptionText: rule.description, helpUri: ruleHelpUri(rule.id) }));
  }
  const notifications: Array<{ level: "error"; message: { text: string } }> = [];
  for (const report of reports) {
    if (report.unreadable) notifications.push({ level: "error", message: { text: `${report.file}: ${report.unreadable}` } });
    const uri = artifactUri(resolve(report.file) ?? report.file);
    const add = (issue: Issue, level: "error" | "warning") => {
      const result = new SarifResultBuilder();
      result.setRuleId(issue.rule ?? "structure");
      result.setLevel(level);
      result.setMessageText(`${issue.path || "(top level)"}: ${issue.message}`);
      result.setLocationArtifactUri({ uri });
      if (issue.line !== undefined) result.setLocationRegion({ startLine: issue.line, startColumn: issue.column ?? 1 });
      run.addResult(result);
    };
    for (const issue of report.errors) add(issue, "error");
    for (const issue of report.warnings) add(issue, "warning");
  }
  run.run.invocations = [{ executionSuccessful: notifications.length === 0, ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}) }];
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}

/**
 * Where a rule is explained: its section of docs/checks.md (each rule's
 * heading is its id, so the anchor is the id) in the published package of
 * the version that reported it, through unpkg, which serves any file of an
 * npm package at `https://unpkg.com/<name>@<version>/<path>`. Pinned to the
 * version, so the link says what that build checked, whatever changes
 * later; the package ships docs/ (package.json `files`), and names no
 * repository to link to instead.
 */
export function ruleHelpUri(id: string): string {
  return `https://unpkg.com/stepgate@${encodeURIComponent(packageVersion())}/docs/checks.md#${encodeURIComponent(id)}`;
}

/** A path under the working folder as a relative URI (what code scanning matches against the repository), any other as a file: URL. */
function artifactUri(path: string): string {
  const rel = relative(process.cwd(), path);
  if (rel === "" || rel.startsWith("..") || /^[a-zA-Z]:|^\//.test(rel)) return pathToFileURL(path).href;
  return rel.split(sep).map(encodeURIComponent).join("/");
}
