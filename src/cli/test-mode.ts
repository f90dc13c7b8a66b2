// `stepgate --test <stepfile | catalog name> [<cases.yaml>]`: offline cases
// through the real engine. Exit 0 when every verdict agrees, 1 when one
// differs or a file is invalid, 2 when a file named cannot be found.
import { dirname, join } from "node:path";
import { StepgateError, StepfileUnreadable } from "../errors.js";
import type { LoadedStepfile } from "../loader/load.js";
import { CasesInvalid, CasesUnreadable, formatReport, readCasesFile, runCases } from "../offline/index.js";
import { loadArgument, resolveArgument, UnknownCatalogName } from "./catalog.js";
import { openLoadCache } from "./load-cache.js";
import { warningLines } from "./load-warnings.js";
import type { Options } from "./options.js";

export async function testMode(options: Options): Promise<number> {
  if (options.mutate) return (await import("./mutate-mode.js")).mutateMode(options);
  const [arg, given] = options.positionals as [string, string | undefined];
  const fail = (code: number, message: string) => {
    process.stderr.write(`${message}\n`);
    return code;
  };
  let stepfile: LoadedStepfile;
  try {
    stepfile = await loadArgument(arg, options.maxStepfileBytes, options.cache ? openLoadCache() : undefined);
  } catch (error) {
    if (error instanceof UnknownCatalogName || error instanceof StepfileUnreadable) return fail(2, `stepgate: ${error.message}`);
    if (error instanceof StepgateError) return fail(1, `${error.name}: ${error.message}`);
    throw error;
  }
  for (const line of warningLines(stepfile.warnings, arg)) process.stderr.write(`${line}\n`);
  const casesPath = given ?? join(dirname(resolveArgument(arg)), `${stepfile.doc.id}.cases.yaml`);
  try {
    const cases = await readCasesFile(casesPath, stepfile, options.maxStepfileBytes);
    for (const line of warningLines(cases.warnings, casesPath)) process.stderr.write(`${line}\n`);
    const report = await runCases(stepfile, cases, { callsPerStep: options.limits.callsPerStep, toolResultChars: options.limits.toolResultChars });
    process.stdout.write(formatReport(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof CasesUnreadable) return fail(2, `stepgate: ${error.message}${given ? "" : " (the default cases file, <id>.cases.yaml beside the stepfile)"}`);
    if (error instanceof CasesInvalid) return fail(1, `${error.name}: ${error.message}`);
    throw error;
  }
}
