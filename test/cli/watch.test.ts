// `--watch` through the built CLI: a changed stepfile is served anew, a run
// in progress keeps its version, a broken edit keeps the last good version,
// and a removed file makes its tool answer StepfileUnreadable.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { budget, PROCESS_START_MS } from "../support/budget.js";
import { cliEnvironment } from "../support/stepgate.js";

const root = resolve(import.meta.dirname, "../..");
const original = readFileSync(join(root, "test/fixtures/greet.stepfile.yaml"), "utf8");

/** Polls until `probe` gives a value; a reload reads and loads a file, as a start does, so it gets as long as a start. */
async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + PROCESS_START_MS;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("stepgate --watch", () => {
  it("reloads changed stepfiles without touching runs in progress", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-watch-"));
    const file = join(dir, "greet.stepfile.yaml");
    writeFileSync(file, original);
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(root, "bin/stepgate.js"), "--watch", "--ledger-dir", mkdtempSync(join(tmpdir(), "stepgate-watch-ledger-")), file], env: cliEnvironment(), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += String(d)));
    let listChanged = 0;
    const client = new Client({ name: "watch-test", version: "1.0.0" });
    client.setNotificationHandler("notifications/tools/list_changed", () => void (listChanged += 1));
    await client.connect(transport);

    const old = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    const oldRun = (old.structuredContent as { run: string }).run;

    writeFileSync(file, original.replace("Greet someone by name", "Welcome someone by name").replace("Sign off after:", "Close after:"));
    await until(async () => ((await client.listTools()).tools[0]?.description?.startsWith("Welcome") ? true : undefined), "the new description");
    await until(async () => (stderr.includes("reloaded") ? true : undefined), "the reload line");

    // The run that started before the change still sees its own version.
    const oldNext = await client.callTool({ name: "stepgate_submit", arguments: { run: oldRun, output: { greeting: "Hello, Ada" } } });
    expect(oldNext.structuredContent).toMatchObject({ step: { instructions: "Sign off after: Hello, Ada" } });
    const fresh = await client.callTool({ name: "greet", arguments: { name: "Bo" } });
    const freshRun = (fresh.structuredContent as { run: string }).run;
    const freshNext = await client.callTool({ name: "stepgate_submit", arguments: { run: freshRun, output: { greeting: "Hi Bo" } } });
    expect(freshNext.structuredContent).toMatchObject({ step: { instructions: "Close after: Hi Bo" } });

    // A broken edit is reported; the last good version stays served.
    writeFileSync(file, original.replace("    retries: 1\n", "    retries: lots\n"));
    await until(async () => (stderr.includes("keeping the previous version") ? true : undefined), "the refusal");
    expect(stderr).toMatch(/StepfileInvalid: [\s\S]*steps\[0\]\.retries/);
    expect((await client.callTool({ name: "greet", arguments: { name: "Cy" } })).structuredContent).toMatchObject({ state: "running" });

    // A removed file makes its tool answer StepfileUnreadable.
    rmSync(file);
    const gone = await until(async () => {
      const reply = await client.callTool({ name: "greet", arguments: { name: "Di" } });
      return (reply.structuredContent as { error?: string }).error === "StepfileUnreadable" ? reply : undefined;
    }, "StepfileUnreadable");
    expect(gone.isError).toBe(true);
    expect(listChanged).toBeGreaterThan(0);

    // Back, but broken: readable again, so the last good version is served.
    writeFileSync(file, "stepgate: [\n");
    await until(async () => {
      const reply = await client.callTool({ name: "greet", arguments: { name: "Ed" } });
      return (reply.structuredContent as { state?: string }).state === "running" ? true : undefined;
    }, "the last good version after a broken return");

    // The whole folder removed and made again (a branch checkout does this): still watched.
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(file, original.replace("Greet someone by name", "Hail someone by name"));
    await until(async () => ((await client.listTools()).tools[0]?.description?.startsWith("Hail") ? true : undefined), "the reload after the folder came back");
    await client.close();
  }, budget({ starts: 1, replies: 4 }) + 6 * PROCESS_START_MS);
});
