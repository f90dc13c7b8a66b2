// stepgate_test: a draft's (or a served stepfile's) offline cases, given
// inline as a cases file's text, played exactly as `stepgate --test` plays
// them: the same reader, the same replay through the real engine, the same
// report. Nothing goes over the network (the replay answers every call from
// the cases), so the draft rules do not apply: a draft whose API is not
// reachable from here can have its gates checked all the same.
import type { Limits } from "../limits.js";
import { loadStepfileText, type LoadedStepfile } from "../loader/load.js";
import { formatReport, parseCases, runCases, type CasesReport } from "../offline/index.js";

export type TestTarget = { text: string } | { stepfile: LoadedStepfile };

export interface CasesVerdict {
  report: CasesReport;
  text: string;
}

/** Throws StepfileInvalid for a draft that does not load, CasesInvalid for a cases text that is not a valid cases file for it. */
export async function testCases(target: TestTarget, cases: string, limits: Pick<Limits, "callsPerStep" | "toolResultChars">): Promise<CasesVerdict> {
  const stepfile = "text" in target ? loadStepfileText(target.text, "draft") : target.stepfile;
  const file = parseCases(cases, "(cases)", stepfile);
  const report = await runCases(stepfile, file, limits);
  return { report, text: formatReport(report) };
}
