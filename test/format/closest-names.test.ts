// "did you mean": the nearest names to a typo, and none for a far one.
import { describe, expect, it } from "vitest";
import { closestNames, editDistance } from "../../src/format/closest-names.js";

const names = ["github-pr-review", "github-release", "osv-triage", "release-notes", "fx-revaluation"];

describe("closestNames", () => {
  it("finds a swapped, a missing and a doubled letter", () => {
    expect(closestNames("github-pr-reveiw", names)).toEqual(["github-pr-review"]);
    expect(closestNames("osv-triag", names)).toEqual(["osv-triage"]);
    expect(closestNames("release-notess", names)).toEqual(["release-notes"]);
  });

  it("finds a name from a part of it, and nothing from an unrelated word", () => {
    expect(closestNames("release", names)).toEqual(["github-release", "release-notes"]);
    expect(closestNames("weather", names)).toEqual([]);
  });

  it("counts a transposition as one edit", () => {
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });
});
