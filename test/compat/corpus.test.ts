// The compatibility corpus through the built CLI (issue 8): every entry
// loads and passes `stepgate --test`; every entry whose run reaches an API
// is also run live over stdio, driven by the MCP SDK's client as an agent
// would (its calls, then its submission, entry by entry), against a loopback
// API that answers what the cases file recorded. The run's --record-cases
// file must hold the same attempts as the hand-written file (steps, calls
// and their results, outputs, verdicts) and replay with --test to the same
// verdicts: the round trip. A case that lists more attempts for a step than
// its retries allow is played live up to the attempt where the run fails.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCases } from "../../src/offline/cases-file.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import { stepgate } from "../offline/cli.js";
import { corpusEntries, liveEntries, mechanicalSteps, settingsEnv, type CaseText, type CorpusEntry } from "./corpus.js";

type Result = { content: Array<{ type: string; text: string }>; structuredContent: Record<string, unknown>; isError?: boolean };

const entries = corpusEntries();
// Spawning the CLI and a client on a loaded two-core machine: allow for it.
const LIVE_TIMEOUT_MS = 180_000;

// Entries run side by side (vitest's maxConcurrency, one per core): each test
// spawns its own CLI and loopback API in its own folders and closes them
// itself, and most of its time is spent waiting for those processes.
describe.concurrent("the compatibility corpus", () => {
  it("has at least 20 entries, each with a stepfile and a cases file", () => {
    expect(entries.length).toBeGreaterThanOrEqual(20);
    // One recorded cases file is large, as real recordings of whole API responses are.
    expect(Math.max(...entries.map((e) => statSync(e.cases).size))).toBeGreaterThanOrEqual(200 * 1024);
  });

  describe.each(entries.map((e) => [e.name, e] as const))("%s", (_name, entry) => {
    it("loads and agrees with its cases file under stepgate --test", async () => {
      const run = await stepgate("--test", entry.stepfile, entry.cases);
      expect(run.stderr).not.toMatch(/StepfileInvalid|CasesInvalid/);
      expect(run.stdout, run.stdout + run.stderr).toMatch(new RegExp(`${entry.parsedCases.cases.length} cases?: ${entry.parsedCases.cases.length} agree, 0 differ`));
      expect(run.code, run.stdout + run.stderr).toBe(0);
    }, LIVE_TIMEOUT_MS);

    // Entries with a mechanical step or an API run live too (issue 8).
    if (entry.routes || mechanicalSteps(entry).size > 0) {
      it("runs live against a loopback API that answers as recorded, and its --record-cases file replays to the same verdicts", async () => {
        await liveRoundTrip(entry);
      }, LIVE_TIMEOUT_MS);
    }
  });
});

async function liveRoundTrip(entry: CorpusEntry): Promise<void> {
  const open: Array<SpawnedStepgate | ApiFixture> = [];
  try {
    await playLive(entry, open);
  } finally {
    await Promise.all(open.map((o) => o.close()));
  }
}

async function playLive(entry: CorpusEntry, open: Array<SpawnedStepgate | ApiFixture>): Promise<void> {
  const api = await startApiFixture(entry.routes ?? []);
  open.push(api);
  const dir = mkdtempSync(join(tmpdir(), `stepgate-compat-${entry.name}-`));
  const recordDir = join(dir, "recorded");
  const server = await spawnStepgate(["--record-cases", recordDir, "--ledger-dir", join(dir, "ledger"), entry.stepfile], settingsEnv(entry, api.port));
  open.push(server);
  const call = async (name: string, args: Record<string, unknown>) => (await server.client.callTool({ name, arguments: args })) as Result;

  const runs: Array<{ run: string; kase: CaseText; index: number }> = [];
  for (const [index, kase] of entry.parsedCases.cases.entries()) {
    const started = await call(entry.doc.id, kase.inputs ?? {});
    const run = String(started.structuredContent.run);
    let reply = started;
    const live = liveEntries(entry, kase);
    for (const step of live) {
      if (mechanicalSteps(entry).has(step.step)) continue;
      const sent = () => api.received.map((r) => `${r.method} ${r.path}`).join("\n  ");
      expect(reply.structuredContent.state, `case ${index + 1} ended before its entry for ${step.step}: ${reply.content[0]?.text}\nthe API received:\n  ${sent()}`).toBe("running");
      for (const k of step.calls ?? []) {
        const made = await call("stepgate_call", { run, operation: k.tool, arguments: k.arguments ?? {} });
        expect(made.structuredContent.operation, made.content[0]?.text).toBe(k.tool);
      }
      reply = await call("stepgate_submit", { run, output: step.output });
    }
    expect(reply.structuredContent.state, `case ${index + 1} (${kase.name ?? "unnamed"}) must end, so it is recorded: ${reply.content[0]?.text}`).not.toBe("running");
    runs.push({ run, kase: { ...kase, steps: live }, index });
  }
  await server.close();

  const stepfile = await loadStepfileFile(entry.stepfile);
  const written = readFileSync(entry.cases, "utf8");
  const handWritten = parseCases(written, entry.cases, stepfile);
  const files = readdirSync(recordDir);
  expect(files).toHaveLength(runs.length);
  for (const { run, kase, index } of runs) {
    const file = join(recordDir, `${entry.doc.id}-${run}.cases.yaml`);
    const recorded = parseCases(readFileSync(file, "utf8"), file, stepfile).cases[0]!;
    // A live run records only the attempts it had (see liveEntries).
    const listed = handWritten.cases[index]!;
    const expected = { ...listed, steps: listed.steps.slice(0, kase.steps.length) };
    // The same attempts, calls (with the results the API sent) and verdicts as the hand-written case.
    const strip = (c: typeof expected) => c.steps.map((s) => ({ step: s.step, calls: s.calls.map(({ tool, arguments: a, result, is_error, status }) => ({ tool, arguments: a, result, is_error, status: is_error ? status : undefined })), output: s.output, expect: s.expect === "pass" ? "pass" : [...new Set(s.expect.fail)].sort() }));
    const got = strip(recorded);
    const want = strip(expected);
    expect(got, `case ${index + 1}`).toEqual(want);
    // The round trip: the recording replays offline to the same verdicts.
    const replay = await stepgate("--test", entry.stepfile, file);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
  }
}
