// `stepgate --check [--strict] [--format text|json|sarif] [--ignore <rule>]...
// [--offline] <stepfile | folder | catalog name>...`, for CI (a folder: the
// stepfiles and Arazzo documents below it, check-folders.ts): load each file and print
// every error and warning, the findings stepgate_validate gives
// (src/loader/findings.ts), each with its rule id, by file, line and column:
// as file:line:column lines, one JSON report, or SARIF 2.1.0 (check-sarif.ts)
// for code scanning. Exit 1 when a file is invalid (with --strict, also when
// one has a warning), 2 when one cannot be read or named, or a rule given to
// --ignore does not exist, 70 (bin/stepgate.js) for an unexpected error,
// after the other files' findings; else 0. Nothing is served. An OpenAPI document
// pinned by url + sha256 is fetched as preflight fetches it, so its checks
// run, and each MCP server a tool names is listed, so agent-write,
// exposes-in-mcp-listing and undeclared-path can judge its tools; with
// --offline, or when it cannot be reached, a finding says which checks did
// not run (for a listing, when agent-write needed it).
import { StepfileUnreadable, StepgateError, type Issue } from "../errors.js";
import { fetchedFindings, findingsText, type FindingOptions } from "../loader/findings.js";
import { ignoreProblem } from "../loader/rules/index.js";
import { capText } from "../quote.js";
import { mayBeArazzo } from "../arazzo/detect.js";
import { isStepfilePath, resolveArgument, UnknownCatalogName } from "./catalog.js";
import { EMPTY_FOLDER, expandFolders } from "./check-folders.js";
import type { FileReport } from "./check-report.js";
import type { Options } from "./options.js";


export async function checkMode(options: Options, out: (text: string) => void, err: (line: string) => void = () => undefined): Promise<number> {
  for (const id of options.ignore) {
    const problem = ignoreProblem(id);
    if (problem === undefined) continue;
    err(`stepgate: --ignore ${id}: ${problem}`);
    return 2;
  }
  const findingOptions: FindingOptions = { ignore: new Set(options.ignore), ...(options.offline ? { unfetched: "--offline skips fetching" } : checkFetches(options)) };
  const reports: FileReport[] = [];
  // What a file can be refused for is in its report; anything else is a defect of Stepgate (or a
  // damaged install). As when serving, the other files are still checked and their findings
  // printed first, then the error goes on to bin/stepgate.js: one internal error line, exit 70.
  let unexpected: { error: unknown } | undefined;
  const expanded = expandFolders(options.positionals);
  for (const folder of expanded.empty) reports.push({ file: capText(folder), valid: false, errors: [], warnings: [], unreadable: `${folder} ${EMPTY_FOLDER}` });
  for (const arg of expanded.files) {
    try {
      // Each argument is named as given, its quote capped (a 2 MB argument was echoed whole).
      reports.push({ ...(await checkOne(arg, options, findingOptions)), file: capText(arg) });
    } catch (error) {
      unexpected ??= { error };
    }
  }
  reports.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  if (unexpected) {
    // Text lines only: a JSON or SARIF report without one of the files would read as complete.
    if (options.format === "text") {
      const lines = reports.flatMap(findingLines);
      if (lines.length > 0) out(`${lines.join("\n")}\n`);
    }
    throw unexpected.error;
  }
  const errors = reports.reduce((n, r) => n + r.errors.length + (r.unreadable ? 1 : 0), 0);
  const warnings = reports.reduce((n, r) => n + r.warnings.length, 0);
  const code = reports.some((r) => r.unreadable) ? 2 : errors > 0 || (options.strict && warnings > 0) ? 1 : 0;
  if (options.format === "json") {
    out(`${JSON.stringify({ ok: code === 0, strict: options.strict, errors, warnings, files: reports }, null, 2)}\n`);
    return code;
  }
  if (options.format === "sarif") {
    const { sarifLog } = await import("./check-sarif.js");
    out(`${sarifLog(reports, (arg) => resolvedPath(arg))}\n`);
    return code;
  }
  const lines = reports.flatMap(findingLines);
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const files = count(reports.length, "stepfile");
  lines.push(`${files} checked: ${count(errors, "error")}, ${count(warnings, "warning")}${options.strict && warnings > 0 && errors === 0 ? " (--strict: warnings fail the check)" : ""}`);
  out(`${lines.join("\n")}\n`);
  return code;
}

/**
 * The fetch and the MCP listing preflight makes, with the operator's
 * --allow-private-host names and limits. Their code (egress, undici, the MCP
 * client) is loaded, and the egress policy made, on the first document or
 * server a check reaches, so a check of inline documents loads none of it.
 */
function checkFetches(options: Options): Pick<FindingOptions, "fetchPinned" | "listMcp"> {
  let made: Promise<{ fetchPinned: NonNullable<FindingOptions["fetchPinned"]>; listMcp: NonNullable<FindingOptions["listMcp"]> }> | undefined;
  const make = async () => {
    const [{ pinnedDocuments }, { mcpListings }, { addressGuard, userAgent }, { packageVersion }] = await Promise.all([
      import("../tools/pinned-documents.js"),
      import("../tools/mcp-listing.js"),
      import("../egress/index.js"),
      import("./package-root.js"),
    ]);
    const fetchOptions = {
      policy: {
        userAgent: userAgent(packageVersion(), options.contact),
        timeoutMs: options.limits.requestTimeoutMs,
        maxBytes: options.limits.responseBytes,
        env: {},
        addresses: addressGuard({ allowPrivateHosts: options.allowPrivateHosts }),
      },
      env: process.env,
    };
    return { fetchPinned: pinnedDocuments(fetchOptions), listMcp: mcpListings(fetchOptions) };
  };
  // What could not be reached (not a document whose digest differs) can be left out of the check: say how.
  const offlineHint = (error: unknown): never => {
    throw error instanceof StepgateError ? error : new Error(`${(error as Error).message} (--offline checks without fetching)`);
  };
  return {
    fetchPinned: async (toolId, doc) => (await (made ??= make())).fetchPinned(toolId, doc).catch(offlineHint),
    listMcp: async (toolId, doc) => (await (made ??= make())).listMcp(toolId, doc).catch(offlineHint),
  };
}

function resolvedPath(arg: string): string | undefined {
  try {
    return resolveArgument(arg);
  } catch {
    return undefined;
  }
}

/** One argument's report: a catalog name or a path, read once, which may hold a stepfile or an Arazzo document. */
async function checkOne(arg: string, options: Options, findingOptions: FindingOptions): Promise<FileReport> {
  let path: string;
  try {
    path = resolveArgument(arg);
  } catch (error) {
    if (error instanceof UnknownCatalogName) return { file: arg, valid: false, errors: [], warnings: [], unreadable: error.message };
    throw error;
  }
  try {
    const text = await findingsText(path, arg, options.maxStepfileBytes);
    if (typeof text !== "string") return { file: arg, valid: false, errors: text.errors, warnings: [] };
    const arazzo = isStepfilePath(arg) && mayBeArazzo(text) ? await checkArazzo(arg, text, options, findingOptions) : undefined;
    if (arazzo) return arazzo;
    const { loaded, errors, warnings } = await fetchedFindings(text, arg, findingOptions);
    return { file: arg, valid: loaded !== undefined, errors, warnings };
  } catch (error) {
    if (error instanceof StepfileUnreadable) return { file: arg, valid: false, errors: [], warnings: [], unreadable: error.message };
    throw error;
  }
}

/** An Arazzo document's report (docs/arazzo.md): its refusals and its converted stepfiles' findings; undefined for a stepfile. */
async function checkArazzo(arg: string, text: string, options: Options, findingOptions: FindingOptions): Promise<FileReport | undefined> {
  const { checkArazzoDocument, isArazzoDocument } = await import("../arazzo/served-document.js");
  if (!isArazzoDocument(text, arg)) return undefined;
  // Nothing is fetched by --check: a remote source needs its local copy (--source) to be checked.
  const { errors, warnings } = await checkArazzoDocument(arg, text, { localCopies: options.arazzo.sources, servers: options.arazzo.servers });
  // --ignore leaves out the warnings of its rules here as for a stepfile (the converted workflows' findings keep their rule ids).
  return { file: arg, valid: errors.length === 0, errors, warnings: warnings.filter((w) => !findingOptions.ignore?.has(w.rule ?? "")) };
}

/** A file's report as text lines: why it could not be read, its errors, its warnings. */
function findingLines(r: FileReport): string[] {
  return [...(r.unreadable ? [`${r.file}: error: ${r.unreadable}`] : []), ...r.errors.map((i) => line(r.file, "error", i)), ...r.warnings.map((i) => line(r.file, "warning", i))];
}

/** One finding in the form compilers use (file:line:column: severity: ... [rule]), which CI annotators read. */
function line(file: string, severity: "error" | "warning", issue: Issue): string {
  const where = issue.line !== undefined ? `${file}:${issue.line}:${issue.column ?? 1}` : file;
  return `${where}: ${severity}: ${issue.path || "(top level)"}: ${issue.message}${issue.rule ? ` [${issue.rule}]` : ""}`;
}
