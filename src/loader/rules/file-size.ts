// A stepfile is read up to --max-stepfile-bytes and one byte more
// (src/format/read-bounded.ts), so a huge or growing file is refused before
// any parser sees it, in one line: the read is the check.
import type { Issue } from "../../errors.js";
import type { StageRule } from "./rule.js";

export const fileSize: StageRule & { issue(reason: string): Issue } = {
  id: "file-size",
  severity: "error",
  stage: "read",
  description: "The file is larger than --max-stepfile-bytes.",
  /** The finding of a read that stopped at the bound, saying why. */
  issue: (reason) => ({ path: "", message: reason, rule: fileSize.id }),
};
