// The load cache (src/cli/load-cache.ts) through the built CLI: a hit
// answers exactly what a miss and --no-cache answer (initialize and
// tools/list bytes, warnings and refusals on stderr, the exit code), over
// the catalog, the compatibility corpus, the fixtures and the conformance
// stepfiles; a corrupt or foreign entry is ignored and rewritten; folders
// are 0700 and entries 0600, and a folder others may write to is not used;
// a build's folder is trimmed past 2,000 entries; --no-cache neither reads
// nor writes. Each test has its own cache folder.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cacheKey, SHIPPED_LOADS } from "../../src/cli/load-cache.js";
import { budget } from "../support/budget.js";
import { loadCorpus } from "../support/load-corpus.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { stdioOpening } from "../support/stdio-opening.js";

const work = mkdtempSync(join(tmpdir(), "stepgate-load-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ledgerDir = join(work, "ledgers");
mkdirSync(ledgerDir);

/** The build the CLI under test was made by (the catalog index names it too). */
const build = (JSON.parse(readFileSync(join(REPO_ROOT, "dist", "catalog-index.json"), "utf8")) as { build: string }).build;

const FIRST_MESSAGES = stdioOpening("load-cache-test");

interface Served {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Serves the files over stdio with the cache under `cacheHome`: initialize and tools/list, then standard input ends. */
function serve(files: readonly string[], cacheHome: string, extra: readonly string[] = []): Promise<Served> {
  return new Promise((done, fail) => {
    const env = { PATH: process.env.PATH ?? "", HOME: join(work, "no-home"), XDG_CACHE_HOME: cacheHome };
    const child = spawn(process.execPath, [stepgateBin(), "--ledger-dir", ledgerDir, ...extra, ...files], { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(FIRST_MESSAGES);
  });
}

/** The entry file a text's load is kept in, under a cache home. */
function entryFile(cacheHome: string, text: string): string {
  return join(cacheHome, "stepgate", "loads", build, `${cacheKey(text, build)}.json`);
}

const greet = join(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml");
const greetText = readFileSync(greet, "utf8");

describe("the load cache, through the built CLI", () => {
  it(
    "answers on a hit exactly what a miss and --no-cache answer, over the whole corpus",
    async () => {
      // Texts made here (the conformance cases' stepfiles) are written to files; every file keeps its name in the messages.
      const corpus = loadCorpus().map((c, i) => {
        if (c.file) return c.file;
        const file = join(work, `corpus-${i}.stepfile.${c.text.startsWith("{") ? "json" : "yaml"}`);
        writeFileSync(file, c.text);
        return file;
      });
      const cacheHome = join(work, "corpus-cache");
      // Batches of files served together, so few processes start; a refused file or a repeated id is compared like the rest.
      for (let start = 0; start < corpus.length; start += 12) {
        const files = corpus.slice(start, start + 12);
        // The reference uses no cache, so it runs beside the miss; the hit must come after the miss.
        const [reference, miss] = await Promise.all([serve(files, join(work, "unused"), ["--no-cache"]), serve(files, cacheHome)]);
        const hit = await serve(files, cacheHome);
        expect(miss, files.join(" ")).toEqual(reference);
        expect(hit, files.join(" ")).toEqual(reference);
      }
      expect(existsSync(join(work, "unused"))).toBe(false);
    },
    budget({ starts: 40, replies: 40 }),
  );

  it("serves the bundled catalog from the entries the build shipped, as a full load does", async () => {
    const names = readdirSync(join(REPO_ROOT, SHIPPED_LOADS));
    expect(names.length).toBeGreaterThanOrEqual(28);
    const catalog = ["release-notes", "github-release", "trip-weather-plan", "osv-triage"];
    const cacheHome = join(work, "shipped-cache");
    const [shipped, full] = await Promise.all([serve(catalog, cacheHome), serve(catalog, join(work, "unused-2"), ["--no-cache"])]);
    expect(shipped).toEqual(full);
    expect(shipped.code).toBe(0);
    // Every one was a hit on a shipped entry: nothing was written to the user's folder.
    expect(existsSync(join(cacheHome, "stepgate", "loads", build)) ? readdirSync(join(cacheHome, "stepgate", "loads", build)) : []).toEqual([]);
  }, budget({ starts: 2, replies: 4 }));

  it("keeps entries 0600 in folders made 0700, and does not rewrite a hit", async () => {
    const cacheHome = join(work, "modes");
    const first = await serve([greet], cacheHome);
    const entry = entryFile(cacheHome, greetText);
    for (const dir of [cacheHome, join(cacheHome, "stepgate"), join(cacheHome, "stepgate", "loads"), join(cacheHome, "stepgate", "loads", build)]) expect(statSync(dir).mode & 0o777, dir).toBe(0o700);
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    const written = statSync(entry).mtimeMs;
    const bytes = readFileSync(entry, "utf8");
    expect(await serve([greet], cacheHome)).toEqual(first);
    expect(statSync(entry).mtimeMs).toBe(written);
    expect(readFileSync(entry, "utf8")).toBe(bytes);
    // Only the entry: no temporary file is left behind.
    expect(readdirSync(join(cacheHome, "stepgate", "loads", build))).toEqual([`${cacheKey(greetText, build)}.json`]);
  }, budget({ starts: 2, replies: 4 }));

  it("ignores a corrupt entry and rewrites it", async () => {
    const cacheHome = join(work, "corrupt");
    const reference = await serve([greet], cacheHome);
    const entry = entryFile(cacheHome, greetText);
    const good = readFileSync(entry, "utf8");
    const corruptions = [
      "",
      "not json at all",
      good.slice(0, good.length / 2),
      // A body changed under its header: the checksum no longer matches.
      good.replace("Greet someone by name", "Greet someone by NAME"),
      // Valid JSON of the wrong shape under a matching header.
      `${good.split("\n")[0]!.replace(/"sha256":"[0-9a-f]+"/, `"sha256":"${sha256Hex("[]")}"`)}\n[]`,
    ];
    for (const corrupt of corruptions) {
      writeFileSync(entry, corrupt);
      expect(await serve([greet], cacheHome), JSON.stringify(corrupt.slice(0, 60))).toEqual(reference);
      expect(readFileSync(entry, "utf8")).toBe(good);
    }
  }, budget({ starts: 6, replies: 12 }));

  it("ignores an entry written for another text (a foreign entry) and rewrites it", async () => {
    const cacheHome = join(work, "foreign");
    const other = join(work, "other.stepfile.yaml");
    const otherText = greetText.replace("id: greet", "id: greet-other").replace("Greet someone by name", "Greet another by name");
    writeFileSync(other, otherText);
    const reference = await serve([other], cacheHome, ["--no-cache"]);
    await serve([greet], cacheHome);
    // The greet entry copied to the other file's name: its header names another key.
    mkdirSync(join(cacheHome, "stepgate", "loads", build), { recursive: true });
    copyFileSync(entryFile(cacheHome, greetText), entryFile(cacheHome, otherText));
    const served = await serve([other], cacheHome);
    expect(served).toEqual(reference);
    expect(served.stdout).toContain("greet-other");
    expect(readFileSync(entryFile(cacheHome, otherText), "utf8")).toContain(cacheKey(otherText, build));
  }, budget({ starts: 3, replies: 6 }));

  it("removes the older half of a build's entries once they pass 2,000, keeping the newest", async () => {
    const cacheHome = join(work, "full");
    const folder = join(cacheHome, "stepgate", "loads", build);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const dir of [cacheHome, join(cacheHome, "stepgate"), join(cacheHome, "stepgate", "loads")]) chmodSync(dir, 0o700);
    const day = 24 * 3600;
    for (let i = 0; i < 2_001; i++) {
      const file = join(folder, `old-${i}.json`);
      writeFileSync(file, "x");
      // The first thousand written longest ago.
      utimesSync(file, Date.now() / 1000 - (i < 1_000 ? 2 * day : day), Date.now() / 1000 - (i < 1_000 ? 2 * day : day));
    }
    const [reference, served] = await Promise.all([serve([greet], join(work, "unused-4"), ["--no-cache"]), serve([greet], cacheHome)]);
    expect(served).toEqual(reference);
    const left = readdirSync(folder);
    expect(left).toContain(`${cacheKey(greetText, build)}.json`);
    expect(left.filter((n) => n.startsWith("old-")).length).toBe(1_001);
    expect(left.some((n) => /^old-\d{1,3}\.json$/.test(n))).toBe(false);
  }, budget({ starts: 2, replies: 4 }));

  it("does not use a folder others may write to", async () => {
    const cacheHome = join(work, "open");
    mkdirSync(join(cacheHome, "stepgate"), { recursive: true, mode: 0o777 });
    chmodSync(join(cacheHome, "stepgate"), 0o777);
    const [reference, served] = await Promise.all([serve([greet], join(work, "unused-3"), ["--no-cache"]), serve([greet], cacheHome)]);
    expect(served).toEqual(reference);
    expect(existsSync(entryFile(cacheHome, greetText))).toBe(false);
  }, budget({ starts: 2, replies: 4 }));

  it("reads and writes nothing with --no-cache, and takes the flag only where stepfiles load", async () => {
    const cacheHome = join(work, "off");
    await serve([greet], cacheHome);
    const entry = entryFile(cacheHome, greetText);
    writeFileSync(entry, "corrupt");
    await serve([greet], cacheHome, ["--no-cache"]);
    expect(readFileSync(entry, "utf8")).toBe("corrupt");
    const verify = await serve([join(work, "none.jsonl")], cacheHome, ["--verify", "--no-cache"]);
    expect(verify.code).toBe(2);
    expect(verify.stderr).toContain("--no-cache is only for serving and --test");
  }, budget({ starts: 3, replies: 6 }));
});

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
