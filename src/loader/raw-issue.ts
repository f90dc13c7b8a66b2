// One finding as a check makes it, before the loader places it (line and
// column, src/loader/load.ts `placeIssues`). Its own file, imported by the
// rules and the walks they share alike, so none of them imports another
// for it.
import type { PathSegment } from "../format/source.js";

export interface RawIssue {
  path: PathSegment[];
  message: string;
  /** Point at the key of the last path segment rather than its value. */
  atKey?: boolean;
  /** A likely mistake no rule of the format forbids: reported, never refused. */
  warning?: true;
  /** The id of the rule that found it (src/loader/rules/index.ts). */
  rule?: string;
}
