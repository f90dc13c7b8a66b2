// An unexpected error while loading the stepfiles to serve is Stepgate's
// own defect (or a damaged install), not a refusal of the file: it is
// reported as one `stepgate: internal error: ...` line with exit 70, as
// docs/how-it-works.md's exit codes say, after the refusals of the other
// arguments. Acted out for real: a copy of the built package missing the
// chunk that serving an Arazzo document imports, so the import fails
// inside the load. A refusal (a file that is not there) keeps exit 1.
// `--check` does the same: the other files' findings first, then the one
// line, exit 70; and `--test` (plain and --mutate) with its mode's own
// chunk missing ends with the same line and exit 70.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), "stepgate-damaged-install-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

async function stepgate(root: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  try {
    const { stderr, stdout } = await run(process.execPath, [join(root, "bin/stepgate.js"), "--ledger-dir", join(copy, "ledgers"), ...args], { env: { PATH: process.env.PATH ?? "", HOME: copy, XDG_CACHE_HOME: join(copy, "cache"), ...env } });
    return { code: 0, stderr, stdout };
  } catch (error) {
    const e = error as { code: number; stderr: string; stdout: string };
    return { code: e.code, stderr: e.stderr, stdout: e.stdout };
  }
}

/** Removes the built chunk whose name starts with `prefix` from the copy. */
function removeChunk(prefix: string): void {
  const chunks = join(copy, "dist", "chunks");
  const entry = readdirSync(chunks).filter((name) => name.startsWith(`${prefix}-`) && name.endsWith(".js"));
  expect(entry).toHaveLength(1);
  rmSync(join(chunks, entry[0]!));
}

const arazzo = join(REPO_ROOT, "test/arazzo/fixtures/buy-pet.arazzo.yaml");
const missing = join(copy, "not-there.stepfile.yaml");

beforeAll(() => {
  for (const part of ["bin", "dist", "schema", "awesome-stepfiles", "package.json"]) cpSync(join(REPO_ROOT, part), join(copy, part), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
  removeChunk("served-document");
});

describe("an unexpected error while loading", () => {
  it("is an internal error (exit 70, one line, the stack only with STEPGATE_DEBUG), after the other arguments' refusals", async () => {
    const damaged = await stepgate(copy, [missing, arazzo]);
    expect(damaged.code).toBe(70);
    const lines = damaged.stderr.trimEnd().split("\n");
    expect(lines).toEqual([`StepfileUnreadable: ${missing} could not be read: ENOENT`, expect.stringMatching(/^stepgate: internal error: Cannot find module '.*served-document-.*\.js'/)]);
    const debug = await stepgate(copy, [arazzo], { STEPGATE_DEBUG: "1" });
    expect(debug.code).toBe(70);
    expect(debug.stderr).toMatch(/^stepgate: internal error: Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module[^]*\n {4}at /);

    // A refusal is still exit 1, in the whole package as in the damaged one.
    for (const root of [REPO_ROOT, copy]) expect(await stepgate(root, [missing])).toEqual({ code: 1, stderr: `StepfileUnreadable: ${missing} could not be read: ENOENT\n`, stdout: "" });
  }, budget({ starts: 4 }));

  it("in --check: the other files' findings first, then the internal error line, exit 70", async () => {
    const checked = await stepgate(copy, ["--check", missing, arazzo]);
    expect(checked.code).toBe(70);
    expect(checked.stdout).toBe(`${missing}: error: ${missing} could not be read: ENOENT\n`);
    expect(checked.stderr).toMatch(/^stepgate: internal error: Cannot find module '.*served-document-.*\.js'[^\n]*\n$/);
    // A JSON report without one of the files would read as complete: none is written.
    const json = await stepgate(copy, ["--check", "--format", "json", missing, arazzo]);
    expect(json).toMatchObject({ code: 70, stdout: "" });
    expect(json.stderr).toMatch(/^stepgate: internal error: /);
    // The whole package checks both: the missing file is a refusal (exit 2), not an internal error.
    const whole = await stepgate(REPO_ROOT, ["--check", missing, arazzo]);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toBe("");
  }, budget({ starts: 3 }));

  it("in --test and --test --mutate: the internal error line, exit 70", async () => {
    // --mutate's own code first (plain --test's is still there), then plain --test's.
    for (const [chunk, args] of [["mutate-mode", ["--test", "--mutate", "release-notes"]], ["test-mode", ["--test", "release-notes"]]] as const) {
      removeChunk(chunk);
      const tested = await stepgate(copy, [...args]);
      expect(tested.code).toBe(70);
      expect(tested.stderr).toMatch(new RegExp(`^stepgate: internal error: Cannot find module '.*${chunk}-.*\\.js'[^\\n]*\\n$`));
    }
  }, budget({ starts: 2 }));
});
