// One stepfile's cases file (by default `<id>.cases.yaml` beside it) and its
// accepted survivors, mutated: what `stepgate --test --mutate`, the catalog
// index's score column and the catalog's own check all run, so the three
// agree on every figure.
import { dirname, join } from "node:path";
import type { Issue } from "../../errors.js";
import type { Limits } from "../../engine/context.js";
import { DEFAULT_MAX_STEPFILE_BYTES } from "../../limits.js";
import type { LoadedStepfile } from "../../loader/load.js";
import { readCasesFile, type CasesFile } from "../cases-file.js";
import { readAccepted } from "./accepted.js";
import { DEFAULT_MUTANTS_PER_ENTRY, DEFAULT_SEED, MUTATION_NAMES, mutateCases, type MutationReport } from "./mutate-cases.js";

export interface MutateFileOptions {
  limits: Limits;
  /** The cases file; default `<id>.cases.yaml` beside the stepfile. */
  casesPath?: string;
  /** Already read (a conformance case's), instead of casesPath. */
  cases?: CasesFile;
  seed?: number;
  perEntry?: number;
  maxBytes?: number;
}

/** Throws CasesUnreadable, CasesInvalid or MutantsFileInvalid as the files call for. */
export async function mutateFile(stepfile: LoadedStepfile, stepfilePath: string, options: MutateFileOptions): Promise<{ report: MutationReport; warnings: Array<{ file: string; issues: Issue[] }> }> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_STEPFILE_BYTES;
  const cases = options.cases ?? (await readCasesFile(options.casesPath ?? join(dirname(stepfilePath), `${stepfile.doc.id}.cases.yaml`), stepfile, maxBytes));
  const accepted = await readAccepted(cases.path, stepfile, MUTATION_NAMES, maxBytes);
  const report = await mutateCases(stepfile, cases, options.limits, { seed: options.seed ?? DEFAULT_SEED, perEntry: options.perEntry ?? DEFAULT_MUTANTS_PER_ENTRY, accepted }, stepfilePath);
  return { report, warnings: cases.warnings.length > 0 ? [{ file: cases.path, issues: cases.warnings }] : [] };
}
