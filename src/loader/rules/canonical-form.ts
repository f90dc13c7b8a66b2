// What RFC 8785 canonical JSON, and so a stepfile's identity (format
// section 1), cannot hold: a lone UTF-16 surrogate ("\ud800" in JSON or
// YAML escapes) is not a Unicode character, and NaN or an infinity (YAML's
// `.nan`, `.inf`, or a number too large for a double, `1e999`) has no JSON
// spelling. Found here with its path, so it is a StepfileInvalid issue with a
// line like any other, instead of the canonicalizer's bare throw (which was
// an `internal error` naming no file, issue 29).
import { isWellFormed } from "../../format/canonical-json.js";
import type { PathSegment } from "../../format/source.js";
import type { RawIssue } from "../raw-issue.js";
import type { Rule } from "./rule.js";

export const canonicalForm: Rule = {
  id: "canonical-form",
  severity: "error",
  description: "A string or key holds a lone UTF-16 surrogate, or a number is NaN or infinite (.nan, .inf, 1e999): canonical JSON (and so the stepfile's identity) cannot hold it.",
  check: ({ doc, reportAll }) => reportAll(canonicalFormIssues(doc)),
};

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Every string value or key holding a lone surrogate, and every number that
 * is not finite. It walks every node of the document, so it keeps one path
 * and copies it only for an issue (a copy per node was most of this rule's
 * time on a first launch, issue 27 item 7), and asks the engine whether a
 * string is well-formed before it searches for the surrogate. Recursive:
 * parsed data is at most MAX_DEPTH (src/format/nesting.ts) deep.
 */
function canonicalFormIssues(data: unknown): RawIssue[] {
  const issues: RawIssue[] = [];
  const path: PathSegment[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      if (!isWellFormed(value)) issues.push({ path: [...path], message: describe(value) });
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) issues.push({ path: [...path], message: `is ${String(value)}, a number JSON has no spelling for, so the stepfile has no identity (RFC 8785); write a finite number` });
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        visit(value[i]);
        path.pop();
      }
    } else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        path.push(key);
        if (!isWellFormed(key)) issues.push({ path: [...path], message: `the key ${describe(key)}`, atKey: true });
        visit((value as Record<string, unknown>)[key]);
        path.pop();
      }
    }
  };
  visit(data);
  return issues;
}


function describe(text: string): string {
  const at = text.search(LONE);
  const code = text.charCodeAt(at).toString(16);
  return `holds a lone surrogate (\\u${code}) at character ${at + 1}, which is not a Unicode character; a stepfile must be valid Unicode`;
}
