// The built CLI, run as users run it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { AUTHORING_TOOLS } from "../../src/authoring/index.js";
import { describe, expect, it } from "vitest";
import { cli } from "../support/cli-exec.js";
import { cliEnvironment } from "../support/stepgate.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin/stepgate.js");
const greet = join(root, "test/fixtures/greet.stepfile.yaml");

function tempDir() {
  return mkdtempSync(join(tmpdir(), "stepgate-cli-"));
}

describe("stepgate CLI", () => {
  it("prints help and version", async () => {
    const help = await cli("--help");
    expect(help.code).toBe(0);
    for (const option of ["--calls-per-step", "--tool-result-chars", "--run-idle-ms", "--request-timeout-ms", "--response-bytes", "--ledger-dir", "--contact", "--draft-credential", "--draft-setting", "--allow-private-host", "--record-cases", "--watch", "--verify", "--list", "--keygen", "--signing-key", "STEPGATE_SIGNING_KEY", "--checkpoint-every", "--key", "--json", "--show", "--html", "--max-stepfile-bytes", "--max-sessions", "--no-cache"]) {
      expect(help.stdout).toContain(option);
    }
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect((await cli("--version")).stdout.trim()).toBe(`stepgate ${pkg.version}`);
  });

  it("refuses a bad option value with one line and exit 2", async () => {
    const result = await cli("--run-idle-ms", "soon", greet);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("--run-idle-ms");
  });

  it("refuses an invalid stepfile at start with the path and line of each issue", async () => {
    const dir = tempDir();
    const file = join(dir, "bad.stepfile.yaml");
    writeFileSync(file, readFileSync(greet, "utf8").replace("    retries: 1\n", "    retries: 1\n    gatez: []\n").replace("{{steps.hello.greeting}}", "{{steps.later.greeting}}"));
    const result = await cli(file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("StepfileInvalid");
    expect(result.stderr).toContain(`${file}:10:5 steps[0].gatez: unknown field gatez`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses two served files with one id", async () => {
    const dir = tempDir();
    const copy = join(dir, "copy.stepfile.json");
    writeFileSync(copy, JSON.stringify({ stepgate: "1", id: "greet", inputs: { type: "object" }, steps: [{ id: "a", instructions: "x", produces: { type: "object" }, gates: [{ id: "g", schema: {} }] }] }));
    const result = await cli(greet, copy);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("both have id greet");
  });

  it("names an unknown catalog entry", async () => {
    const result = await cli("no-such-entry");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no-such-entry is neither a stepfile path");
  });

  it("runs a stepfile over stdio, writes a ledger that --verify passes, and names the first bad seq of an edited one", async () => {
    const ledgerDir = tempDir();
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", ledgerDir, greet], env: cliEnvironment(), stderr: "pipe" }));
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["greet", "stepgate_call", "stepgate_submit", ...AUTHORING_TOOLS.map((t) => t.name)]);
    expect(tools.tools[0]).toMatchObject({ description: "Greet someone by name, then sign off.", inputSchema: { required: ["name"] } });
    const first = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    const runId = (first.structuredContent as { run: string }).run;
    expect(first.structuredContent).toMatchObject({ state: "running", step: { step: "hello", instructions: "Greet Ada.", attempts: 2 } });
    const retry = await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: { greeting: "Hi" } } });
    expect(retry.structuredContent).toMatchObject({ state: "running", failures: [{ gate: "names-them", diagnosis: "the greeting must contain the name" }], attempts_left: 1 });
    await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: { greeting: "Hello, Ada" } } });
    const done = await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: { signature: "S" } } });
    expect(done.structuredContent).toMatchObject({ state: "finished", outputs: { hello: { greeting: "Hello, Ada" }, sign: { signature: "S" } } });
    expect((done.content as Array<{ text: string }>)[0]!.text).toContain('"greeting": "Hello, Ada"');
    const after = await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: {} } });
    expect(after.isError).toBe(true);
    expect((after.content as Array<{ text: string }>)[0]!.text).toMatch(/^RunNotActive: /);
    await client.close();

    const files = readdirSync(ledgerDir);
    expect(files).toEqual([`greet-${runId}.jsonl`]);
    const file = join(ledgerDir, files[0]!);
    const types = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l).type);
    expect(types).toEqual(["run_started", "step_started", "submit", "gate", "submit", "gate", "step_passed", "step_started", "submit", "gate", "step_passed", "run_finished"]);
    const good = await cli("--verify", file);
    expect(good).toMatchObject({ code: 0 });
    expect(good.stdout).toContain("intact, unsigned: the last record is not protected, 12 records");

    const lines = readFileSync(file, "utf8").trim().split("\n");
    lines[4] = lines[4]!.replace('"attempt":2', '"attempt":1');
    const edited = join(ledgerDir, "edited.jsonl");
    writeFileSync(edited, `${lines.join("\n")}\n`);
    const bad = await cli("--verify", file, edited);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`${edited}: tampered at record 5 (line 6): prev is not the hash of the previous record`);
  });

  it("writes ledger records to standard error without --ledger-dir", async () => {
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, greet], env: cliEnvironment(), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += String(d)));
    await client.connect(transport);
    await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    await client.close();
    const records = stderr.trim().split("\n").map((l) => JSON.parse(l));
    expect(records.map((r) => r.type).slice(0, 2)).toEqual(["run_started", "step_started"]);
  });
});

describe("stepgate CLI output", () => {
  it("stops quietly when its reader goes away (stepgate --list | head -1)", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [bin, "--list"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
