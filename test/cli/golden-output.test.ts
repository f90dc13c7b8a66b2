// What a client or a script reads from the built CLI, byte for byte: the
// initialize and tools/list answers over stdio with the catalog served,
// `--list` and `--help`. The fixtures in test/fixtures/golden/ were written
// by the CLI as it ran before it was bundled and made to load lazily (issue
// 9: main's src/cli.ts run unbundled), so start-up work can move around
// without changing a byte of what comes out.
// A deliberate change to the catalog, the tools or the help text changes
// them too: rewrite the fixture in the same commit.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";

const golden = (name: string) => readFileSync(resolve(REPO_ROOT, "test", "fixtures", "golden", name), "utf8");
const ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-golden-"));
afterAll(() => rmSync(ledgerDir, { recursive: true, force: true }));

/** The raw lines the server writes to stdout for initialize and tools/list; ends the session after the second answer. */
function rawExchange(args: readonly string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [stepgateBin(), ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += String(d);
      if (/"id":2[,}]/.test(out) && out.endsWith("\n")) child.stdin.end();
    });
    child.stderr.on("data", (d) => (err += String(d)));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done(out) : fail(new Error(`stepgate exited with ${code}: ${err}`))));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "golden", version: "0" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  });
}

describe("the built CLI's answers, byte for byte", () => {
  it("initialize and tools/list over stdio, with four catalog stepfiles served", async () => {
    const out = await rawExchange(["--ledger-dir", ledgerDir, "release-notes", "meeting-dates", "wiki-brief", "dependency-upgrade-plan"]);
    expect(out).toBe(golden("stdio-initialize-tools-list.jsonl"));
  });

  it("--list", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [stepgateBin(), "--list"]);
    expect(stdout).toBe(golden("list.txt"));
  });

  it("--help", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [stepgateBin(), "--help"]);
    expect(stdout).toBe(golden("help.txt"));
  });
});
