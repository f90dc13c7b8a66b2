// `stepgate --check [--strict] [--json] <stepfile | catalog name>...`, for CI:
// load each file and print every error and warning as file:line:column, the
// findings stepgate_validate gives (src/loader/findings.ts). Exit 1 when a
// file is invalid (with --strict, also when one has a warning), 2 when one
// cannot be read or named, else 0. Nothing is served and nothing is fetched:
// an OpenAPI document given by url is known only at preflight.
import { StepfileUnreadable, type Issue } from "../errors.js";
import { fileFindings } from "../loader/findings.js";
import { capText } from "../quote.js";
import { resolveArgument, UnknownCatalogName } from "./catalog.js";
import type { Options } from "./options.js";

interface FileReport {
  file: string;
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
  /** Why the file could not be read or named. */
  unreadable?: string;
}

export async function checkMode(options: Options, out: (text: string) => void): Promise<number> {
  const reports: FileReport[] = [];
  // Each argument is named as given, its quote capped (a 2 MB argument was echoed whole).
  for (const arg of options.positionals) reports.push({ ...(await checkOne(arg, options.maxStepfileBytes)), file: capText(arg) });
  const errors = reports.reduce((n, r) => n + r.errors.length + (r.unreadable ? 1 : 0), 0);
  const warnings = reports.reduce((n, r) => n + r.warnings.length, 0);
  const code = reports.some((r) => r.unreadable) ? 2 : errors > 0 || (options.strict && warnings > 0) ? 1 : 0;
  if (options.json) {
    out(`${JSON.stringify({ ok: code === 0, strict: options.strict, errors, warnings, files: reports }, null, 2)}\n`);
    return code;
  }
  const lines: string[] = [];
  for (const r of reports) {
    if (r.unreadable) lines.push(`${r.file}: error: ${r.unreadable}`);
    lines.push(...r.errors.map((i) => line(r.file, "error", i)), ...r.warnings.map((i) => line(r.file, "warning", i)));
  }
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const files = count(reports.length, "stepfile");
  lines.push(`${files} checked: ${count(errors, "error")}, ${count(warnings, "warning")}${options.strict && warnings > 0 && errors === 0 ? " (--strict: warnings fail the check)" : ""}`);
  out(`${lines.join("\n")}\n`);
  return code;
}

async function checkOne(arg: string, maxBytes: number): Promise<FileReport> {
  let path: string;
  try {
    path = resolveArgument(arg);
  } catch (error) {
    if (error instanceof UnknownCatalogName) return { file: arg, valid: false, errors: [], warnings: [], unreadable: error.message };
    throw error;
  }
  try {
    const { loaded, errors, warnings } = await fileFindings(path, arg, maxBytes);
    return { file: arg, valid: loaded !== undefined, errors, warnings };
  } catch (error) {
    if (error instanceof StepfileUnreadable) return { file: arg, valid: false, errors: [], warnings: [], unreadable: error.message };
    throw error;
  }
}

/** One finding in the form compilers use (file:line:column: severity: ...), which CI annotators read. */
function line(file: string, severity: "error" | "warning", issue: Issue): string {
  const where = issue.line !== undefined ? `${file}:${issue.line}:${issue.column ?? 1}` : file;
  return `${where}: ${severity}: ${issue.path || "(top level)"}: ${issue.message}`;
}
