// The format's rule for a stepfile id (format section 1: `^[a-z][a-z0-9-]*$`,
// at most 64 characters), the one the structure check applies. An id
// becomes part of a file name (a ledger, a recorded cases file), so whatever
// writes such a name checks it again here rather than trusting that the
// document it holds went through the structure check (issue 29: a load
// cache entry whose id held `../` put a ledger outside --ledger-dir).
import { InternalError } from "../errors.js";

const STEPFILE_ID = /^[a-z][a-z0-9-]{0,63}$/;

export function isStepfileId(id: unknown): id is string {
  return typeof id === "string" && STEPFILE_ID.test(id);
}

/** The id, for a file name; a defect of Stepgate's own (never input) when it is not a stepfile id. */
export function idForFileName(id: string): string {
  if (!isStepfileId(id)) throw new InternalError(`a stepfile id that breaks the format's id rule reached a file name: ${JSON.stringify(String(id).slice(0, 80))}`);
  return id;
}
