// What `stepgate --check` found in one argument: its own file, so the
// SARIF writer (check-sarif.ts, imported by check.ts on demand) reads it
// without importing check.ts back.
import type { Issue } from "../errors.js";

export interface FileReport {
  file: string;
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
  /** Why the file could not be read or named. */
  unreadable?: string;
}
