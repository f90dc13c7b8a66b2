// stepgate --test through the built CLI on catalog entries: a wrong
// expectation is caught and named, and missing or malformed files are refused.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.js";
import { stepgate } from "./cli.js";

// Two runs of the CLI each; a loaded machine takes its time.
const SLOW = 120_000;

// Every entry agreeing with its cases file is part of the catalog check
// (test/catalog/catalog.test.ts); here, how --test reports what differs.
describe("stepgate --test on the catalog", () => {
  it("exits 1 and names the differing verdict when an expectation is wrong", async () => {
    const source = join(REPO_ROOT, "awesome-stepfiles/packages/dependency-upgrade-plan/dependency-upgrade-plan.cases.yaml");
    const wrong = readFileSync(source, "utf8").replace("expect: { fail: [default-versions, advisories-read, advisory-titles] }", "expect: { fail: [default-versions, advisories-read] }");
    const file = join(mkdtempSync(join(tmpdir(), "stepgate-cases-")), "wrong.cases.yaml");
    writeFileSync(file, wrong);
    const result = await stepgate("--test", "dependency-upgrade-plan", file);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("DIFF 3. plan: fail [default-versions, advisories-read, advisory-titles]");
    expect(result.stdout).toContain("expected fail [default-versions, advisories-read], got fail [advisories-read, advisory-titles, default-versions]");
    expect(result.stdout).toContain("advisory-titles: each security title must be deps.dev's title for that advisory");
    expect(result.stdout).toContain("5 agree, 1 differ\n");
  }, SLOW);

  it("exits 2 for a cases file that does not exist, and 1 naming the line of a malformed one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-cases-"));
    const missing = await stepgate("--test", "release-notes", join(dir, "none.cases.yaml"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("none.cases.yaml could not be read");
    const file = join(dir, "bad.cases.yaml");
    writeFileSync(file, "cases:\n  - name: typo\n    steps:\n      - step: gruop\n        output: {}\n        expect: pass\n");
    const bad = await stepgate("--test", "release-notes", file);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${file}:4:15 cases[0].steps[0].step: release-notes has no step gruop`);
  }, SLOW);

  it("exits 2 for an unknown catalog name", async () => {
    const result = await stepgate("--test", "no-such-entry");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("neither a stepfile path");
  }, SLOW);
});
