// One test per conformance case: ours in this folder, and the public suite in
// ../shared/conformance/ when that folder exists (played in place, never
// copied). Every case spawns its own CLI process, fixtures and temp dir, so
// they can run concurrently; vitest's maxConcurrency (one per core, see
// vitest.config.ts) bounds how many run at once, and each case's time limit
// starts when it starts, not while it queues.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";
import { readCase, type ConformanceCase } from "./case.js";
import { EXPECTED_FAILURES } from "./expected-failures.js";
import { playCase, type Reply } from "./play.js";

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

/** A case file that does not read fails its own test, not the whole file's collection. */
function readCaseOrError(file: string): ConformanceCase | Error {
  try {
    return readCase(file);
  } catch (error) {
    return error as Error;
  }
}

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
      const c = readCaseOrError(join(suite.dir, file));
      // What the case waits for: one CLI start, the call that starts the run and one reply per action.
      const timeout = budget({ starts: 1, replies: 1 + (c instanceof Error ? 0 : c.actions?.length ?? 0) });
      test(failing ? `${file} (expected to fail: remove "${key}" from expected-failures.ts once it passes)` : file, async () => {
        if (c instanceof Error) throw c;
        const problems = await playCase(c, { trace });
        expect(problems, `${key}:\n  ${problems.join("\n  ")}`).toEqual([]);
      }, timeout);
    }
  });
}

describe("expected-failures.ts", () => {
  it("names only cases that exist", () => {
    // A stale entry would silently stop meaning anything.
    expect(EXPECTED_FAILURES.filter((key) => !seen.has(key) && !(key.startsWith("shared/") && !existsSync(SHARED)))).toEqual([]);
  });
});
