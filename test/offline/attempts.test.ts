// A case's entries for a step are its attempts, as many as the author lists
// (format section 9): every one is evaluated against the step's gates
// whatever `retries` says, and an entry past them gets a note, not a
// difference. Through the built CLI: `stepgate --test`, and stepgate_test
// over stdio and --http in both protocol eras, which play cases the same way.
// (test/compat/corpus/attempts-beyond-retries also runs the cases live, where
// the run keeps its real attempt budget and fails where the note says.)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliServer, type CliServer } from "../http/fixtures/cli-server.js";
import { connectClient } from "../http/fixtures/harness.js";
import { budget } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import { stepgate } from "./cli.js";

const entry = join(REPO_ROOT, "test", "compat", "corpus", "attempts-beyond-retries");
const stepfile = join(entry, "fx-quote.stepfile.yaml");
const casesFile = join(entry, "fx-quote.cases.yaml");
const NOTES = [
  "note: attempt 2 of step quote, which allows 1 (retries: 0); a live run would have failed after attempt 1",
  "note: attempt 3 of step receipt, which allows 2 (retries: 1); a live run would have failed after attempt 2",
];

const dir = mkdtempSync(join(tmpdir(), "stepgate-attempts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The report's lines, without the indentation. */
const lines = (report: string) => report.split("\n").map((l) => l.trim());

describe("entries past a step's retries", () => {
  it("stepgate --test evaluates every entry in order and notes the ones past the step's retries", async () => {
    const run = await stepgate("--test", stepfile, casesFile);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = lines(run.stdout);
    // A failing entry, then a passing one, on a step with retries 0: both judged, then the run goes on.
    expect(report).toEqual(expect.arrayContaining(["ok   1. quote: fail [fetched-rate] (line 9)", "ok   2. quote: pass (line 14)", "ok   3. receipt: pass (line 17)", "ok   4. receipt: pass (line 34)", ...NOTES]));
    expect(report.at(-2)).toBe("2 cases: 2 agree, 0 differ");
  });

  it("still reports a verdict that differs on an entry past the retries", async () => {
    const changed = readFileSync(casesFile, "utf8").replace('output: {line: "Paid 15000 JPY"}', 'output: {line: "Paid 15000 yen!"}');
    const file = join(dir, "fx-quote.cases.yaml");
    writeFileSync(file, changed);
    const run = await stepgate("--test", stepfile, file);
    expect(run.code).toBe(1);
    expect(lines(run.stdout)).toEqual(expect.arrayContaining(["DIFF 4. receipt: fail [names-currency] (line 34)", NOTES[1]]));
  });
});

describe("stepgate_test plays them the same way", () => {
  let http: CliServer;
  const spawned: SpawnedStepgate[] = [];
  beforeAll(async () => {
    http = await startCliServer(["--ledger-dir", join(dir, "ledger"), stepfile]);
  });
  afterAll(async () => {
    await Promise.all(spawned.map((s) => s.close()));
    await http?.stop();
  });

  const clients: Record<string, () => Promise<Client>> = {
    "stdio, 2025-11-25": async () => (spawned[spawned.push(await spawnStepgate(["--ledger-dir", join(dir, "ledger"), stepfile])) - 1]!).client,
    "stdio, 2026-07-28": async () => (spawned[spawned.push(await spawnStepgate(["--ledger-dir", join(dir, "ledger"), stepfile], {}, { versionNegotiation: { mode: { pin: "2026-07-28" } } })) - 1]!).client,
    "--http, 2025-11-25": () => connectClient(http.url, "legacy"),
    "--http, 2026-07-28": () => connectClient(http.url, "modern"),
  };
  it.each(Object.keys(clients))("%s", async (how) => {
    const client = await clients[how]!();
    const reply = await client.callTool({ name: "stepgate_test", arguments: { stepfile: "fx-quote", cases: readFileSync(casesFile, "utf8") } });
    const text = (reply.content as Array<{ text: string }>)[0]!.text;
    expect(reply.isError ?? false, text).toBe(false);
    expect(lines(text)).toEqual(expect.arrayContaining([...NOTES, "2 cases: 2 agree, 0 differ"]));
    if (how.startsWith("--http")) await client.close();
  }, budget({ starts: 1, replies: 2 }));
});
