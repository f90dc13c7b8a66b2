// One test per conformance case: ours in this folder, and the public suite in
// ../shared/conformance/ when that folder exists (played in place, never
// copied). Every case spawns its own CLI process, fixtures and temp dir, so
// they run concurrently.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.js";
import { readCase } from "./case.js";
import { EXPECTED_FAILURES } from "./expected-failures.js";
import { playCase, type Reply } from "./play.js";

const CASE_TIMEOUT_MS = 20_000;
const OWN = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(REPO_ROOT, "..", "shared", "conformance");

const suites = [
  { label: "own", dir: OWN },
  ...(existsSync(SHARED) ? [{ label: "shared", dir: SHARED }] : []),
];

const known = new Set(EXPECTED_FAILURES);
// CONFORMANCE_TRACE=1 prints every reply, for working out why a case differs.
const trace = process.env.CONFORMANCE_TRACE
  ? (i: number, reply: Reply) => console.log(`reply ${i}: ${JSON.stringify("result" in reply ? reply.result : reply, null, 2)}`)
  : undefined;
const seen = new Set<string>();

for (const suite of suites) {
  const files = readdirSync(suite.dir).filter((f) => f.endsWith(".case.yaml")).sort();
  describe.concurrent(`${suite.label} conformance`, () => {
    for (const file of files) {
      const key = `${suite.label}/${file}`;
      seen.add(key);
      const failing = known.has(key);
      // it.fails passes only while the case fails; once it passes, the
      // failure message below is what the reader sees.
      const test = failing ? it.fails : it;
      test(failing ? `${file} (expected to fail: remove "${key}" from expected-failures.ts once it passes)` : file, async () => {
        const problems = await playCase(readCase(join(suite.dir, file)), { trace });
        expect(problems, `${key}:\n  ${problems.join("\n  ")}`).toEqual([]);
      }, CASE_TIMEOUT_MS);
    }
  });
}

describe("expected-failures.ts", () => {
  it("names only cases that exist", () => {
    // A stale entry would silently stop meaning anything.
    expect(EXPECTED_FAILURES.filter((key) => !seen.has(key) && !(key.startsWith("shared/") && !existsSync(SHARED)))).toEqual([]);
  });
});
