// An unexpected error while loading the stepfiles to serve is Stepgate's
// own defect (or a damaged install), not a refusal of the file: it is
// reported as one `stepgate: internal error: ...` line with exit 70, as
// docs/how-it-works.md's exit codes say, after the refusals of the other
// arguments. Acted out for real: a copy of the built package missing the
// chunk that serving an Arazzo document imports, so the import fails
// inside the load. A refusal (a file that is not there) keeps exit 1.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), "stepgate-damaged-install-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

async function stepgate(root: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [join(root, "bin/stepgate.js"), "--ledger-dir", join(copy, "ledgers"), ...args], { env: { PATH: process.env.PATH ?? "", HOME: copy, XDG_CACHE_HOME: join(copy, "cache"), ...env } });
    return { code: 0, stderr };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe("an unexpected error while loading", () => {
  it("is an internal error (exit 70, one line, the stack only with STEPGATE_DEBUG), after the other arguments' refusals", async () => {
    for (const part of ["bin", "dist", "schema", "awesome-stepfiles", "package.json"]) cpSync(join(REPO_ROOT, part), join(copy, part), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
    const chunks = join(copy, "dist", "chunks");
    const entry = readdirSync(chunks).filter((name) => name.startsWith("served-document-") && name.endsWith(".js"));
    expect(entry).toHaveLength(1);
    rmSync(join(chunks, entry[0]!));
    const arazzo = join(REPO_ROOT, "test/arazzo/fixtures/buy-pet.arazzo.yaml");
    const missing = join(copy, "not-there.stepfile.yaml");

    const damaged = await stepgate(copy, [missing, arazzo]);
    expect(damaged.code).toBe(70);
    const lines = damaged.stderr.trimEnd().split("\n");
    expect(lines).toEqual([`StepfileUnreadable: ${missing} could not be read: ENOENT`, expect.stringMatching(/^stepgate: internal error: Cannot find module '.*served-document-.*\.js'/)]);
    const debug = await stepgate(copy, [arazzo], { STEPGATE_DEBUG: "1" });
    expect(debug.code).toBe(70);
    expect(debug.stderr).toMatch(/^stepgate: internal error: Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module[^]*\n {4}at /);

    // A refusal is still exit 1, in the whole package as in the damaged one.
    for (const root of [REPO_ROOT, copy]) expect(await stepgate(root, [missing])).toEqual({ code: 1, stderr: `StepfileUnreadable: ${missing} could not be read: ENOENT\n` });
  }, budget({ starts: 4 }));
});
