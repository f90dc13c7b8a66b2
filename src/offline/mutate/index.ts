// `stepgate --test --mutate`: wrong and likely-equivalent outputs played
// through a stepfile's gates with its cases' evidence.
export { mutateCases, DEFAULT_MUTANTS_PER_ENTRY, DEFAULT_SEED, MUTATION_NAMES, type MutateOptions, type MutationReport, type Survivor, type RefusedEquivalent, type AcceptedMutant } from "./mutate-cases.js";
export { formatMutationReport } from "./report.js";
export { readAccepted, parseAccepted, acceptedPathFor, MutantsFileInvalid, type AcceptedList } from "./accepted.js";
export { mutateFile, type MutateFileOptions } from "./mutate-file.js";
