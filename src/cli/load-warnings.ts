// Warnings a stepfile (or cases file) earned at load: likely mistakes the
// format does not forbid, so the file is served anyway. Printed once, when
// the file is loaded, one line each, in the form load errors use.
import { formatIssue, type Issue } from "../errors.js";

/** @example warningLines(loaded.warnings, "triage.stepfile.yaml") // ["stepgate: warning: triage.stepfile.yaml:9:13 steps[0].gates[0].id: ..."] */
export function warningLines(warnings: readonly Issue[], file: string): string[] {
  return warnings.map((w) => `stepgate: warning: ${formatIssue(w, file)}`);
}
