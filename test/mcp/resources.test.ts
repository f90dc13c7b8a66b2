// MCP resources through real SDK clients against the built CLI, over stdio
// and --http: a run's ledger and timeline are listed and readable for the
// session that owns the run only, list changes are announced, and catalog
// READMEs read as written.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/ledger/verify.js";
import { startCliServer, type CliServer } from "../http/fixtures/cli-server.js";
import { connectClient } from "../http/fixtures/harness.js";
import { REPO_ROOT } from "../support/paths.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const greet = join(REPO_ROOT, "test/fixtures/greet.stepfile.yaml");
const readme = join(REPO_ROOT, "awesome-stepfiles/planning/meeting-dates/README.md");

async function finishGreet(client: Client): Promise<string> {
  const start = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
  const run = (start.structuredContent as { run: string }).run;
  await client.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hi" } } });
  await client.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hi Ada" } } });
  await client.callTool({ name: "stepgate_submit", arguments: { run, output: { signature: "A" } } });
  return run;
}

async function readText(client: Client, uri: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  return (contents[0] as { text: string }).text;
}

describe("resources over stdio", () => {
  let sg: SpawnedStepgate;
  let changes = 0;
  beforeAll(async () => {
    // No --ledger-dir: the ledger goes to standard error, and the resource still has it.
    sg = await spawnStepgate([greet]);
    sg.client.setNotificationHandler("notifications/resources/list_changed", () => void (changes += 1));
  }, 60_000);
  afterAll(() => sg.close());

  it("declares resources with list changes and lists the catalog READMEs before any run", async () => {
    expect(sg.client.getServerCapabilities()?.resources).toMatchObject({ listChanged: true });
    const { resources } = await sg.client.listResources();
    expect(resources.some((r) => r.uri.startsWith("stepgate://runs/"))).toBe(false);
    expect(resources).toContainEqual(expect.objectContaining({ uri: "stepgate://catalog/meeting-dates/README.md", mimeType: "text/markdown" }));
    expect(await readText(sg.client, "stepgate://catalog/meeting-dates/README.md")).toBe(readFileSync(readme, "utf8"));
    const { resourceTemplates } = await sg.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["stepgate://runs/{run}/ledger", "stepgate://runs/{run}/timeline"]);
  });

  it("announces a new run, lists its ledger and timeline, and reads the ledger exactly as written", async () => {
    const run = await finishGreet(sg.client);
    await expect.poll(() => changes, { timeout: 20_000 }).toBeGreaterThan(0);
    const { resources } = await sg.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([`stepgate://runs/${run}/ledger`, `stepgate://runs/${run}/timeline`]));
    const ledger = await readText(sg.client, `stepgate://runs/${run}/ledger`);
    expect(verifyLedger(ledger)).toEqual({ status: "unsigned", records: 12 });
    const written = sg.stderr().split("\n").filter((l) => l.includes(`"run":"${run}"`));
    expect(ledger).toBe(`${written.join("\n")}\n`);
    const timeline = await readText(sg.client, `stepgate://runs/${run}/timeline`);
    expect(timeline).toContain(`Run ${run} of greet`);
    expect(timeline).toContain("attempt 1: failed names-them");
    expect(timeline).toContain("verify    intact, unsigned: the last record is not protected");
  });

  it("does not find a run that does not exist", async () => {
    await expect(sg.client.readResource({ uri: "stepgate://runs/no-such-run/ledger" })).rejects.toThrow(/not found/i);
  });
});

describe("resources over --http", () => {
  let server: CliServer;
  let ledgerDir: string;
  beforeAll(async () => {
    ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-resources-"));
    server = await startCliServer(["--ledger-dir", ledgerDir, greet], { timeoutMs: 60_000 });
  }, 90_000);
  afterAll(() => server.stop());

  it("lists and reads a run only for the session that owns it (2025-11-25 sessions)", async () => {
    const owner = await connectClient(server.url, "legacy");
    const other = await connectClient(server.url, "legacy");
    const run = await finishGreet(owner);
    const ledger = await readText(owner, `stepgate://runs/${run}/ledger`);
    const file = readdirSync(ledgerDir).find((f) => f.endsWith(`-${run}.jsonl`))!;
    expect(ledger).toBe(readFileSync(join(ledgerDir, file), "utf8"));
    expect((await owner.listResources()).resources.map((r) => r.uri)).toContain(`stepgate://runs/${run}/timeline`);
    expect((await other.listResources()).resources.some((r) => r.uri.includes(run))).toBe(false);
    await expect(other.readResource({ uri: `stepgate://runs/${run}/ledger` })).rejects.toThrow(/not found/i);
    await owner.close();
    await other.close();
  });

  it("reads a run by its id but lists none to 2026-07-28 callers, who share one session", async () => {
    const client = await connectClient(server.url, "modern");
    const run = await finishGreet(client);
    expect((await client.listResources()).resources.some((r) => r.uri.startsWith("stepgate://runs/"))).toBe(false);
    expect(verifyLedger(await readText(client, `stepgate://runs/${run}/ledger`))).toMatchObject({ status: "unsigned" });
    await client.close();
  });
});
