// A check stricter than the format is a warning printed once at load, never
// a refusal (issue 8): through the built CLI, serving over stdio and under
// --test, the file loads and the warning appears exactly once.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import { stepgate } from "../offline/cli.js";

const STEPFILE = `stepgate: "1"
id: warned
inputs: { type: object }
steps:
  - id: only
    instructions: Say hi.
    produces: { type: object, required: [hi], properties: { hi: { type: string } } }
    gates:
      - { id: produces, schema: { required: [hi] } }
`;
const CASES = `cases:
  - steps:
      - { step: only, output: { hi: there }, expect: pass, note: written by hand }
`;
const WARNING = /stepgate: warning: \S*warned\.stepfile\.yaml:9:15 steps\[0\]\.gates\[0\]\.id: gate id produces is also the name Stepgate reports its own produces check under/g;

const open: SpawnedStepgate[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function files(): { stepfile: string; cases: string } {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-warned-"));
  writeFileSync(join(dir, "warned.stepfile.yaml"), STEPFILE);
  writeFileSync(join(dir, "warned.cases.yaml"), CASES);
  return { stepfile: join(dir, "warned.stepfile.yaml"), cases: join(dir, "warned.cases.yaml") };
}

describe("load warnings through the CLI", () => {
  it("serves a stepfile with a warning, printing it once", async () => {
    const { stepfile } = files();
    // With --ledger-dir, standard error is free for messages; without it, it carries only ledger lines.
    const server = await spawnStepgate(["--ledger-dir", join(dirname(stepfile), "ledger"), stepfile]);
    open.push(server);
    const tools = (await server.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain("warned");
    // Warnings are found once the tools/list answer is written (issue 27: they need not hold up the first answer).
    for (let waited = 0; server.stderr().match(WARNING) === null && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.stderr().match(WARNING)).toHaveLength(1);
  }, 120_000);

  it("keeps standard error for ledger lines in stdio mode without --ledger-dir", async () => {
    const { stepfile } = files();
    const server = await spawnStepgate([stepfile]);
    open.push(server);
    expect((await server.client.listTools()).tools.map((t) => t.name)).toContain("warned");
    // Past the time warnings are found after the answer (src/cli/serve.ts), so none was held back to come later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.stderr().match(WARNING)).toBeNull();
  }, 120_000);

  it("replays under --test, warning once for the stepfile and once for the cases file's unknown field", async () => {
    const { stepfile, cases } = files();
    const run = await stepgate("--test", stepfile, cases);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('ok   case "case 1"');
    expect(run.stderr.match(WARNING)).toHaveLength(1);
    expect(run.stderr).toMatch(/stepgate: warning: \S*warned\.cases\.yaml:3:60 cases\[0\]\.steps\[0\]\.note: unknown field note, ignored/);
  }, 120_000);
});
