// stepgate_test: a draft's (or a served stepfile's) offline cases, given
// inline as a cases file's text, played exactly as `stepgate --test` plays
// them: the same reader, the same replay through the real engine, the same
// report. Nothing goes over the network (the replay answers every call from
// the cases), so the draft rules do not apply: a draft whose API is not
// reachable from here can have its gates checked all the same. With
// `mutate`, it plays wrong outputs through the gates as `stepgate --test
// --mutate` does, so an agent writing a stepfile sees which wrong outputs
// its gates let through.
import type { Limits } from "../limits.js";
import { AUTHORING_COUNT_LIMITS, tooMany } from "./input-limits.js";
import { loadStepfileText, type LoadedStepfile } from "../loader/load.js";
import { formatReport, parseCases, runCases, type CasesReport } from "../offline/index.js";
import { DEFAULT_MUTANTS_PER_ENTRY, DEFAULT_SEED, formatMutationReport, MUTATION_NAMES, mutateCases, parseAccepted, type MutationReport } from "../offline/mutate/index.js";

/** A cases text with more cases than one call plays (src/authoring/input-limits.ts). */
export class TooManyCases extends Error {}

export type TestTarget = { text: string } | { stepfile: LoadedStepfile };

/** stepgate_test's `mutate: true` and the arguments that shape it. */
export interface MutateRequest {
  perEntry?: number;
  seed?: number;
  /** A `<id>.mutants.yaml` text. */
  accepted?: string;
}

export interface CasesVerdict {
  /** The cases' report; with `mutate`, the mutation report under `mutation`. */
  report: CasesReport & { mutation?: MutationReport };
  text: string;
}

/**
 * Throws StepfileInvalid for a draft that does not load, CasesInvalid for a
 * cases text that is not a valid cases file for it, TooManyCases for one
 * past the bound, MutantsFileInvalid for
 * an `accepted` text that is not a valid accepted-mutants file.
 */
export async function testCases(target: TestTarget, cases: string, limits: Pick<Limits, "callsPerStep" | "toolResultChars">, mutate?: MutateRequest): Promise<CasesVerdict> {
  const stepfile = "text" in target ? loadStepfileText(target.text, "draft") : target.stepfile;
  const file = parseCases(cases, "(cases)", stepfile);
  // Read within the size bound; refused before any case runs.
  if (file.cases.length > AUTHORING_COUNT_LIMITS.cases) throw new TooManyCases(tooMany("stepgate_test", "cases", "cases", file.cases.length, AUTHORING_COUNT_LIMITS.cases));
  const report = await runCases(stepfile, file, limits);
  if (!mutate) return { report, text: formatReport(report) };
  const accepted = mutate.accepted === undefined ? undefined : parseAccepted(mutate.accepted, "(accepted)", stepfile, MUTATION_NAMES);
  // Mutants of cases that do not agree say nothing; the report says which cases to fix first.
  const mutation = await mutateCases(stepfile, file, limits, { seed: mutate.seed ?? DEFAULT_SEED, perEntry: mutate.perEntry ?? DEFAULT_MUTANTS_PER_ENTRY, ...(accepted ? { accepted } : {}) }, "draft");
  return { report: { ...report, mutation }, text: `${formatReport(report)}\n${formatMutationReport(mutation)}` };
}
