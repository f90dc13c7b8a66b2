// The format's structure (src/format/structure.ts, one JSON Schema) checked
// first, by its validator (structure-check.ts, generated at build time):
// every later rule reads a document of the shape src/format/types.ts gives,
// so a file that breaks it gets no other check. The validator is the check;
// its errors are cut down here to what an author can act on.
import type { ErrorObject } from "ajv/dist/2020.js";
import { pointerPath } from "../../format/path.js";
import { pathString } from "../../format/source.js";
import { capText } from "../../quote.js";
import validate from "../structure-check.js";
import type { RawIssue } from "../raw-issue.js";
import type { StageRule } from "./rule.js";

export const structure: StageRule & { check(data: unknown): RawIssue[] } = {
  id: "structure",
  severity: "error",
  stage: "structure",
  description: "A field is unknown, missing, of the wrong type or not one of the values the format allows.",
  /** Empty when `data` has the structure. */
  check(data) {
    return validate(data) ? [] : structureIssues(validate.errors ?? []).map((i) => ({ ...i, rule: structure.id }));
  },
};

/**
 * ajv's errors, cut down to what an author can act on: an `anyOf` over the
 * two spellings of `exposes` entries reports both branches, so keep only the
 * most specific ones.
 */
function structureIssues(errors: readonly ErrorObject[]): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const e of errors) {
    if (e.keyword === "anyOf" || e.keyword === "if") continue;
    const path = pointerPath(e.instancePath);
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case "additionalProperties":
        issues.push({ path: [...path, String(p.additionalProperty)], message: `unknown field ${capText(String(p.additionalProperty))}`, atKey: true });
        break;
      case "required":
        issues.push({ path, message: `missing required field ${String(p.missingProperty)}` });
        break;
      case "const":
        issues.push({ path, message: `must be ${JSON.stringify(p.allowedValue)}` });
        break;
      case "enum":
        issues.push({ path, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` });
        break;
      case "propertyName":
        issues.push({ path: [...path, String(p.propertyName)], message: `${JSON.stringify(p.propertyName)} is not a valid name`, atKey: true });
        break;
      case "pattern":
        issues.push({ path, message: `must match ${String(p.pattern)}` });
        break;
      default:
        issues.push({ path, message: e.message ?? "is invalid" });
    }
  }
  // An `exposes` entry that is neither a valid name nor a valid object gets
  // errors from both branches; the string branch's "must be string" is noise
  // when the author clearly wrote an object.
  return issues.filter((i, _, all) => !(i.message === "must be string" && all.some((o) => o !== i && pathString(o.path).startsWith(pathString(i.path)))));
}
