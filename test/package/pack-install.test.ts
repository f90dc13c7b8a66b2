// The package as the registry would serve it: `npm pack` of this checkout,
// installed into an empty folder outside the repository with
// `--ignore-scripts` (nothing of the clone can leak in through node's module
// resolution or a build step), then run as a user would run it. What is
// checked is behaviour, not file names, so it holds whatever `dist/` holds.
//
// The pack uses `--ignore-scripts` too: `npm test` has just built dist/, and
// the `prepack` build would rewrite dist/ while other test files spawn it.
// The install uses `--prefer-offline`: the dependencies' tarballs come from
// the npm cache `npm ci` filled; only package metadata the cache lacks is
// asked of the registry (docs/contributing.md).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget, PROCESS_START_MS, REPLY_MS } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";

const exec = promisify(execFile);
/** npm is a script on some platforms; a shell finds it the way a user's would. */
const npm = (args: string[], cwd: string) => exec("npm", args, { cwd, shell: process.platform === "win32", maxBuffer: 64 * 1024 * 1024 });

/** Packing, then installing ~40 packages from the cache: minutes, not seconds, on a loaded machine. */
const INSTALL_MS = 5 * 60_000;

interface PackedFile {
  path: string;
}

let dir: string;
let tarball: string;
let packed: PackedFile[];
let installed: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "stepgate-pack-"));
  const { stdout } = await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dir], REPO_ROOT);
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: PackedFile[] }>;
  tarball = join(dir, info!.filename);
  packed = info!.files;
  const project = join(dir, "project");
  await mkdir(project);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "empty", private: true }));
  await npm(["install", tarball, "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error"], project);
  installed = join(project, "node_modules", ".bin", process.platform === "win32" ? "stepgate.cmd" : "stepgate");
}, INSTALL_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("is publint clean, with warnings counted as errors", async () => {
    const data = await readFile(tarball);
    const { messages, pkg } = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer }, strict: true });
    expect(messages.map((m) => formatMessage(m, pkg))).toEqual([]);
  });

  it("ships the licence and no source maps or sources", () => {
    const paths = packed.map((f) => f.path);
    expect(paths).toContain("LICENSE");
    // A map without its .ts sources (or sourcesContent) only adds weight.
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    expect(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([]);
  });

  it("carries the metadata a registry page shows, and no build in any install-time script", async () => {
    const manifest = JSON.parse(await readFile(join(dir, "project", "node_modules", "stepgate", "package.json"), "utf8")) as Record<string, unknown> & { scripts?: Record<string, string> };
    for (const field of ["license", "keywords", "engines", "bin"]) expect(manifest, field).toHaveProperty(field);
    // Stepgate has no home of its own yet: a repository, homepage or issue
    // tracker here would name another project's as ours (issue 21).
    for (const field of ["repository", "homepage", "bugs"]) expect(manifest, field).not.toHaveProperty(field);
    // npm runs these for a tarball or registry install; none may need the clone's build tools.
    for (const hook of ["preinstall", "install", "postinstall"]) expect(manifest.scripts?.[hook], hook).toBeUndefined();
  });
});

describe("what the package names as its own", () => {
  it("names no host and no code repository as Stepgate's", async () => {
    const root = join(dir, "project", "node_modules", "stepgate");
    const found: string[] = [];
    for (const { path } of packed) {
      const text = await readFile(join(root, path), "utf8");
      for (const pattern of NAMES_A_HOME) for (const match of text.matchAll(pattern)) found.push(`${path}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });
});

/**
 * What would claim a home for Stepgate: a URL, tag URI or email address whose
 * host is a stepgate domain, or a code host's or registry's page for a
 * stepgate project. A user's own host in a catalog entry
 * (`https://{policy-host}/stepgate/check`) is not one.
 */
const NAMES_A_HOME = [
  /\b[a-z][a-z0-9+.-]*:\/\/(?:[^\s/"'<>@]*@)?[^\s/"'<>:]*stepgate[^\s/"'<>:]*\.[a-z]{2,}\b/gi,
  /\btag:[^\s,"']*stepgate[^\s,"']*,/gi,
  /\b[\w.+-]+@[^\s"'<>]*stepgate[^\s"'<>]*\.[a-z]{2,}\b/gi,
  /\b(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|sr\.ht|npmjs\.com)\/[^\s"'<>]*stepgate/gi,
];

describe("stepgate installed from the tarball", () => {
  const run = (...args: string[]) => exec(installed, args, { cwd: dir, timeout: PROCESS_START_MS });

  it("prints its version", async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect((await run("--version")).stdout.trim()).toBe(`stepgate ${pkg.version}`);
  });

  it("lists the bundled catalog", async () => {
    const { stdout } = await run("--list");
    expect(stdout).toMatch(/^writing \(\d+\)$/m);
    expect(stdout).toMatch(/^ {2}release-notes {2}Release notes from a list of changes$/m);
    expect(stdout).toContain("needs: nothing (keyless)");
  });

  it("serves a catalog entry over stdio and starts a run", async () => {
    const ledgerDir = join(dir, "ledger");
    const transport = new StdioClientTransport({ command: installed, args: ["--ledger-dir", ledgerDir, "release-notes"], cwd: dir, env: cliEnvironment(), stderr: "pipe" });
    const client = new Client({ name: "pack-install-test", version: "0.0.0" });
    await client.connect(transport, { timeout: PROCESS_START_MS });
    try {
      expect((await client.listTools(undefined, { timeout: REPLY_MS })).tools.map((t) => t.name)).toContain("release-notes");
      const started = await client.callTool({ name: "release-notes", arguments: { version: "1.4.0", changes: ["Add a dark theme"] } }, { timeout: REPLY_MS });
      expect(started.isError ?? false).toBe(false);
      expect(started.structuredContent).toMatchObject({ state: "running", step: { step: "group" } });
    } finally {
      await client.close();
    }
  }, budget({ starts: 1, replies: 2 }));
});
