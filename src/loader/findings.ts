// Every finding of one stepfile from the loader's one pass: the errors that
// refuse it, or the warnings of a file that loads. stepgate_validate (a
// draft's text) and `stepgate --check` (files) both read them here, so the
// two can never disagree.
import { StepfileInvalid, type Issue } from "../errors.js";
import { loadStepfileFile, loadStepfileText, type LoadedStepfile } from "./load.js";

export interface Findings {
  /** The stepfile, when it loads. */
  loaded?: LoadedStepfile;
  /** What refuses it (StepfileInvalid's issues); empty when it loads. */
  errors: Issue[];
  /** Likely mistakes in a file that loads; empty when it does not. */
  warnings: Issue[];
}

export function textFindings(text: string, source: string): Findings {
  try {
    return found(loadStepfileText(text, source));
  } catch (error) {
    return refused(error);
  }
}

/** A file's findings; a file that cannot be read throws StepfileUnreadable, as loading does. */
export async function fileFindings(path: string, source: string, maxBytes?: number): Promise<Findings> {
  try {
    return found(await loadStepfileFile(path, source, maxBytes));
  } catch (error) {
    return refused(error);
  }
}

function found(loaded: LoadedStepfile): Findings {
  return { loaded, errors: [], warnings: [...loaded.warnings] };
}

function refused(error: unknown): Findings {
  if (error instanceof StepfileInvalid) return { errors: error.issues, warnings: [] };
  throw error;
}
