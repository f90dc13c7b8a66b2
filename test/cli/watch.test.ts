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

describe("stepgate --watch on an Arazzo document", () => {
  it("converts it again when it or its source description changes, adds and drops workflows, and keeps the last good version of one an edit breaks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-watch-arazzo-"));
    const file = join(dir, "order-status.arazzo.yaml");
    const api = join(dir, "store.openapi.json");
    const document = readFileSync(join(root, "docs/arazzo/order-status.arazzo.yaml"), "utf8");
    const store = readFileSync(join(root, "docs/arazzo/store.openapi.json"), "utf8");
    writeFileSync(file, document);
    writeFileSync(api, store);
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(root, "bin/stepgate.js"), "--watch", "--ledger-dir", mkdtempSync(join(tmpdir(), "stepgate-watch-ledger-")), file], env: cliEnvironment(), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += String(d)));
    const client = new Client({ name: "watch-test", version: "1.0.0" });
    await client.connect(transport);
    const tool = async (name: string) => (await client.listTools()).tools.find((t) => t.name === name);
    const reloads = () => stderr.split("\n").filter((l) => l.startsWith(`stepgate: reloaded ${file} (`)).length;
    expect(stderr).not.toContain("does not reload");

    writeFileSync(file, document.replace("summary: Read an order and the pet it is for", "summary: Look up an order and its pet"));
    await until(async () => ((await tool("order-status"))?.description?.startsWith("Look up an order") ? true : undefined), "the new summary");

    const second = `  - workflowId: readPetOnly
    summary: Read one pet
    inputs: { type: object, required: [petId], properties: { petId: { type: integer } } }
    steps:
      - stepId: read
        operationId: getPet
        parameters: [{ name: petId, in: path, value: $inputs.petId }]
        outputs:
          name: $response.body#/name
`;
    const two = document.replace("summary: Read an order and the pet it is for", "summary: Look up an order and its pet").trimEnd() + "\n" + second;
    writeFileSync(file, two);
    await until(async () => ((await tool("read-pet-only")) ? true : undefined), "the added workflow's tool");

    // The source description is watched too: the inlined document changes, so both workflows are new versions.
    const before = reloads();
    writeFileSync(api, store.replace('"title": "Loopback pet store"', '"title": "Loopback pet store, renamed"'));
    await until(async () => (reloads() > before ? true : undefined), "the reload after the source description changed");

    // An edit that breaks orderStatus (a goto back to itself) refuses it and keeps its last good version; the other workflow goes on.
    writeFileSync(file, two.replace("          - name: cancelled\n            type: end\n", "          - name: cancelled\n            type: goto\n            stepId: readOrder\n"));
    await until(async () => (stderr.includes(`stepgate: keeping the previous version of ${file}#orderStatus`) ? true : undefined), "the kept version");
    expect(stderr).toContain("refused: workflow orderStatus, step readOrder");
    expect((await tool("order-status"))?.description).toMatch(/^Look up an order/);
    expect(await tool("read-pet-only")).toBeDefined();

    // A workflow removed from the document is no longer served.
    writeFileSync(file, document);
    await until(async () => ((await tool("read-pet-only")) === undefined ? true : undefined), "the removed workflow gone");
    expect((await tool("order-status"))?.description).toMatch(/^Read an order/);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }, budget({ starts: 1, replies: 4 }) + 5 * PROCESS_START_MS);
});
