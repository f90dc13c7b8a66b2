// `stepgate --test --mutate [<stepfile | catalog name | conformance case>...] [<cases.yaml>]`:
// each file's cases played with wrong and likely-equivalent outputs
// (src/offline/mutate). With no file, the whole bundled catalog. A
// `*.cases.yaml` argument is the cases file of the stepfile before it; a
// `*.case.yaml` one is a conformance case (format section 10), read in
// place. Exit 0 when every file was mutated (and reached --min-score), 1
// when one fell below it, a case does not replay or a file is invalid, 2
// when a file cannot be found.
import { StepgateError, StepfileUnreadable } from "../errors.js";
import type { Limits } from "../engine/context.js";
import type { LoadedStepfile } from "../loader/load.js";
import { CasesInvalid, CasesUnreadable, type CasesFile } from "../offline/index.js";
import { readConformanceCase } from "../offline/mutate/conformance-case.js";
import { formatMutationReport, MutantsFileInvalid, mutateFile, type MutationReport } from "../offline/mutate/index.js";
import { catalogEntries, loadArgument, resolveArgument, UnknownCatalogName } from "./catalog.js";
import { openLoadCache } from "./load-cache.js";
import { warningLines } from "./load-warnings.js";
import type { Options } from "./options.js";
import { UsageError } from "./options.js";

interface Target {
  arg: string;
  cases?: string;
}

const CASES_FILE = /\.cases\.ya?ml$/i;
const CONFORMANCE_CASE = /\.case\.ya?ml$/i;

/** The files the arguments name, each with its cases file when one is given after it. */
export function mutateTargets(positionals: readonly string[]): Target[] {
  if (positionals.length === 0) return catalogEntries().map((e) => ({ arg: e.file }));
  const targets: Target[] = [];
  for (const arg of positionals) {
    if (CASES_FILE.test(arg)) {
      const last = targets[targets.length - 1];
      if (!last || last.cases !== undefined || CONFORMANCE_CASE.test(last.arg)) throw new UsageError(`${arg}: a cases file follows the stepfile it tests`);
      last.cases = arg;
    } else targets.push({ arg });
  }
  return targets;
}

export async function mutateMode(options: Options): Promise<number> {
  const mutate = options.mutate ?? {};
  const limits: Limits = { ...options.limits };
  const cache = options.cache ? openLoadCache() : undefined;
  const reports: MutationReport[] = [];
  let code = 0;
  const fail = (at: number, message: string) => {
    process.stderr.write(`${message}\n`);
    code = Math.max(code, at);
  };
  let targets: Target[];
  try {
    targets = mutateTargets(options.positionals);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`stepgate: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  for (const target of targets) {
    try {
      let stepfile: LoadedStepfile;
      let cases: CasesFile | undefined;
      if (CONFORMANCE_CASE.test(target.arg)) ({ stepfile, cases } = await readConformanceCase(target.arg, limits, options.maxStepfileBytes));
      else {
        stepfile = await loadArgument(target.arg, options.maxStepfileBytes, cache);
        for (const line of warningLines(stepfile.warnings, target.arg)) process.stderr.write(`${line}\n`);
      }
      const path = cases ? target.arg : resolveArgument(target.arg);
      const { report, warnings } = await mutateFile(stepfile, path, {
        limits,
        ...(cases ? { cases } : {}),
        ...(target.cases ? { casesPath: target.cases } : {}),
        ...(mutate.seed !== undefined ? { seed: mutate.seed } : {}),
        ...(mutate.perEntry !== undefined ? { perEntry: mutate.perEntry } : {}),
        maxBytes: options.maxStepfileBytes,
      });
      for (const w of warnings) for (const line of warningLines(w.issues, w.file)) process.stderr.write(`${line}\n`);
      reports.push(report);
      if (!options.json) process.stdout.write(formatMutationReport(report));
      // A case that does not replay is what plain --test fails on; its mutants were not played.
      if (report.skipped.length > 0) fail(1, `stepgate: ${report.stepfile}: ${report.skipped.length} case${report.skipped.length === 1 ? " does" : "s do"} not replay as the file says, so ${report.skipped.length === 1 ? "it was" : "they were"} not mutated (see stepgate --test)`);
      if (mutate.minScore !== undefined && report.score < mutate.minScore) fail(1, `stepgate: ${report.stepfile} scores ${report.score.toFixed(2)}, below --min-score ${mutate.minScore}`);
    } catch (error) {
      if (error instanceof UnknownCatalogName || error instanceof StepfileUnreadable) fail(2, `stepgate: ${error.message}`);
      else if (error instanceof CasesUnreadable) fail(2, `stepgate: ${error.message}${target.cases ? "" : " (the default cases file, <id>.cases.yaml beside the stepfile)"}`);
      else if (error instanceof CasesInvalid || error instanceof MutantsFileInvalid || error instanceof StepgateError) fail(1, `${error.name}: ${error.message}`);
      else throw error;
    }
  }
  if (options.json) process.stdout.write(`${JSON.stringify(summary(reports), null, 2)}\n`);
  else if (reports.length > 1) process.stdout.write(totalLine(reports));
  return code;
}

function summary(reports: MutationReport[]) {
  const mutants = reports.reduce((n, r) => n + r.mutants, 0);
  const settled = reports.reduce((n, r) => n + r.killed + r.accepted.length, 0);
  return {
    mutants,
    killed: reports.reduce((n, r) => n + r.killed, 0),
    survivors: reports.reduce((n, r) => n + r.survivors.length, 0),
    score: mutants === 0 ? 1 : settled / mutants,
    files: reports,
  };
}

function totalLine(reports: MutationReport[]): string {
  const s = summary(reports);
  return `${reports.length} files: ${s.mutants} mutants, ${s.killed} killed, ${s.survivors} survive; score ${s.score.toFixed(2)}\n`;
}
