// Load cache entries that are not what this code wrote, through the built
// CLI (issue 29): an entry the build shipped (dist/loads/) edited in a copy
// of the package, with its checksum recomputed, is not used (the bundle holds
// each shipped entry's digest) and the catalog entry is loaded in full; a
// user entry that is a FIFO, one of 300 MiB, or one whose checksum holds but
// whose body is not findings is a miss, never a hang, a read of the whole
// file or a stop: the stepfile is served as a full load serves it.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cacheKey, SHIPPED_LOADS } from "../../src/cli/load-cache.js";
import { REPO_ROOT } from "../support/paths.js";
import { stdioOpening } from "../support/stdio-opening.js";

const work = mkdtempSync(join(tmpdir(), "stepgate-cache-entries-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const build = (JSON.parse(readFileSync(join(REPO_ROOT, "dist", "catalog-index.json"), "utf8")) as { build: string }).build;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const FIRST_MESSAGES = stdioOpening("cache-entries-test");

/** Serves `args` over stdio with the given package's CLI: initialize and tools/list, then standard input ends. */
function serve(bin: string, args: readonly string[], cacheHome: string): Promise<{ code: number | null; tools: Array<{ name: string; description?: string }>; stderr: string }> {
  return new Promise((done, fail) => {
    const env = { PATH: process.env.PATH ?? "", HOME: join(work, "no-home"), XDG_CACHE_HOME: cacheHome };
    const child = spawn(process.execPath, [bin, "--ledger-dir", join(work, "ledgers"), ...args], { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", fail);
    child.on("close", (code) => {
      const list = stdout
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as { id?: number; result?: { tools?: Array<{ name: string; description?: string }> } })
        .find((m) => m.id === 2);
      done({ code, tools: list?.result?.tools ?? [], stderr });
    });
    child.stdin.end(FIRST_MESSAGES);
  });
}

describe("load cache entries this code did not write", () => {
  it("does not use a shipped entry whose bytes are not the ones the build vouched for", async () => {
    // A copy of the package, so the edit touches no other test's dist/.
    const pkg = join(work, "package");
    for (const part of ["bin", "dist", "package.json", "awesome-stepfiles"]) cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"));
    const text = readFileSync(join(pkg, "awesome-stepfiles", "writing", "release-notes", "release-notes.stepfile.yaml"), "utf8");
    const entry = join(pkg, SHIPPED_LOADS, `${cacheKey(text, build)}.json`);
    const honest = readFileSync(entry, "utf8");
    const newline = honest.indexOf("\n");
    const body = JSON.parse(honest.slice(newline + 1)) as { doc: { description?: string; steps: Array<{ gates?: unknown[] }> } };
    const description = body.doc.description;
    body.doc.description = "Forged: no gates to pass.";
    for (const step of body.doc.steps) if (step.gates) step.gates = [];
    const forged = JSON.stringify(body);
    const header = JSON.parse(honest.slice(0, newline)) as Record<string, unknown>;
    writeFileSync(entry, `${JSON.stringify({ ...header, sha256: sha256(forged) })}\n${forged}`);

    const cacheHome = join(work, "cache-shipped");
    const served = await serve(join(pkg, "bin", "stepgate.js"), ["release-notes"], cacheHome);
    expect(served.code).toBe(0);
    expect(served.stderr).toBe("");
    expect(served.tools.find((t) => t.name === "release-notes")?.description).toBe(description);
    // Loaded in full: the full load kept its findings in the user's folder, which a shipped hit never writes.
    expect(readdirSync(join(cacheHome, "stepgate", "loads", build))).toEqual([`${cacheKey(text, build)}.json`]);
  });

  const greet = join(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml");
  const greetText = readFileSync(greet, "utf8");
  const userEntry = (cacheHome: string) => join(cacheHome, "stepgate", "loads", build, `${cacheKey(greetText, build)}.json`);
  const bin = join(REPO_ROOT, "bin", "stepgate.js");

  it.each([
    ["a FIFO", (file: string) => execFileSync("mkfifo", [file])],
    ["300 MiB", (file: string) => {
      writeFileSync(file, "");
      truncateSync(file, 300 * 1024 * 1024);
    }],
    ["whole by its checksum but holding no findings", (file: string) => {
      const bodyText = JSON.stringify({ identity: 7, warnings: "none", doc: { id: "../x" } });
      writeFileSync(file, `${JSON.stringify({ format: "stepgate-load-cache/2", key: cacheKey(greetText, build), sha256: sha256(bodyText) })}\n${bodyText}`, { mode: 0o600 });
    }],
  ])("serves the text in full when the user's entry is %s", async (_what, make) => {
    const cacheHome = join(work, `cache-${Math.random().toString(36).slice(2)}`);
    const reference = await serve(bin, ["--no-cache", greet], join(work, "unused"));
    mkdirSync(join(cacheHome, "stepgate", "loads", build), { recursive: true, mode: 0o700 });
    make(userEntry(cacheHome));
    const served = await serve(bin, [greet], cacheHome);
    expect(served).toEqual(reference);
    expect(served.tools.map((t) => t.name)).toContain("greet");
    expect(existsSync(userEntry(cacheHome))).toBe(true);
  });
});
