// Offline cases (format section 9): reading cases files, replaying them
// through the engine, reporting, and recording live runs as cases files.
export { readCasesFile, parseCases, CasesInvalid, CasesUnreadable, type Case, type CaseCall, type CaseEntry, type CasesFile, type Expectation } from "./cases-file.js";
export { runCases, SKIPPED_GATE_KINDS, type CaseResult, type CasesReport, type EntryResult } from "./run-cases.js";
export { formatReport } from "./report.js";
export { ReplayToolbox } from "./replay-toolbox.js";
export { caseRecorder } from "./record-cases.js";
