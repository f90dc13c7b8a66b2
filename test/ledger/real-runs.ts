// Real ledgers written by real runs: the built CLI over stdio, driven by the
// SDK's client (with elicitation, so approve gates reach a "person"), calling
// a real HTTP API on loopback. One server serves every stepfile; each kind of
// run the timeline must read is made once:
//
//   agent      greet: attempt 1 fails a gate, attempt 2 passes, then a second step
//   mechanical shelves: a mechanical step whose call Stepgate makes, then an agent step
//   retries    retrying: a GET answered 503 then 200 (a retry), a POST answered 503
//   failed     greet: both attempts fail the gate (GateFailed)
//   approval   approve-post: a gate fails, then a person approves
//   abandoned  greet: started, then the client goes away
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { startApiFixture } from "../support/api-fixture.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";

export const RUN_KINDS = ["agent", "mechanical", "retries", "failed", "approval", "abandoned"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export interface RealRuns {
  dir: string;
  /** The ledger file of each kind of run. */
  ledgers: Record<RunKind, string>;
  runIds: Record<RunKind, string>;
}

const shelves = (origin: string) => `stepgate: "1"
id: shelves
description: Count a shelf's items, then report them.
inputs: { type: object, required: [shelf], properties: { shelf: { type: string } } }
tools:
  catalogue:
    openapi:
      server: "${origin}"
      document:
        openapi: 3.1.0
        info: { title: Catalogue, version: "1" }
        paths:
          /items:
            get:
              operationId: listItems
              parameters: [{ name: shelf, in: query, required: true, schema: { type: string } }]
    exposes: [listItems]
steps:
  - id: fetch
    do:
      calls:
        - id: shelf
          operation: listItems
          arguments: { shelf: { var: inputs.shelf } }
      output:
        count: { length: { var: responses.shelf.items } }
    produces: { type: object, required: [count], properties: { count: { type: integer } } }
    gates:
      - { id: some-items, message: the shelf holds items, predicate: { ">": [{ var: output.count }, 0] } }
  - id: report
    instructions: "Report that shelf {{inputs.shelf}} holds {{steps.fetch.count}} items."
    produces: { type: object, required: [summary], properties: { summary: { type: string } } }
    gates:
      - { id: counted, schema: { properties: { summary: { pattern: "2" } } } }
`;

const retrying = (origin: string) => `stepgate: "1"
id: retrying
description: Call a busy API.
inputs: { type: object, properties: {} }
tools:
  api:
    openapi:
      server: "${origin}"
      document:
        openapi: 3.1.0
        info: { title: Busy, version: "1" }
        paths:
          /busy-once: { get: { operationId: getBusyOnce } }
          /busy: { post: { operationId: postBusy } }
    exposes: [getBusyOnce, postBusy]
steps:
  - id: call
    tools: [getBusyOnce, postBusy]
    instructions: Call both operations.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`;

/** Serves every stepfile from one built CLI, makes one run of each kind, and returns their ledger files. */
/** `recordCases` also writes each run's cases file beside its ledger (--record-cases to the same folder). */
export async function makeRealRuns(extraArgs: readonly string[] = [], options: { recordCases?: boolean } = {}): Promise<RealRuns> {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-real-runs-"));
  const api = await startApiFixture([
    { method: "GET", path: "/items?shelf=A", answers: [{ status: 200, json: { items: [{ id: "K-1" }, { id: "K-2" }] } }] },
    { method: "GET", path: "/busy-once", answers: [{ status: 503, json: { error: "busy" } }, { status: 200, json: { ok: true } }] },
    { method: "POST", path: "/busy", answers: [{ status: 503, json: { error: "busy" } }] },
  ]);
  writeFileSync(join(dir, "shelves.stepfile.yaml"), shelves(api.origin));
  writeFileSync(join(dir, "retrying.stepfile.yaml"), retrying(api.origin));
  const ledgerDir = join(dir, "ledgers");
  const stepfiles = [
    join(REPO_ROOT, "test/fixtures/greet.stepfile.yaml"),
    join(REPO_ROOT, "test/fixtures/approve.stepfile.yaml"),
    join(dir, "shelves.stepfile.yaml"),
    join(dir, "retrying.stepfile.yaml"),
  ];
  const client = new Client({ name: "real-runs", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { approved: true } }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [stepgateBin(), "--ledger-dir", ledgerDir, ...(options.recordCases ? ["--record-cases", ledgerDir] : []), ...extraArgs, ...stepfiles],
    env: cliEnvironment(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await client.connect(transport);
  } catch (error) {
    await api.close();
    throw new Error(`stepgate did not start: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent as { run: string; state: string };
  const submit = (run: string, output: unknown) => call("stepgate_submit", { run, output });
  const runIds = {} as Record<RunKind, string>;
  try {
    const agent = await call("greet", { name: "Ada" });
    runIds.agent = agent.run;
    await submit(agent.run, { greeting: "Hello there" });
    await submit(agent.run, { greeting: "Hello Ada" });
    expectState(await submit(agent.run, { signature: "-- Grace" }), "finished");

    const mechanical = await call("shelves", { shelf: "A" });
    runIds.mechanical = mechanical.run;
    expectState(await submit(mechanical.run, { summary: "Shelf A holds 2 items." }), "finished");

    const retries = await call("retrying", {});
    runIds.retries = retries.run;
    await call("stepgate_call", { run: retries.run, operation: "getBusyOnce", arguments: {} });
    await call("stepgate_call", { run: retries.run, operation: "postBusy", arguments: {} });
    expectState(await submit(retries.run, {}), "finished");

    const failed = await call("greet", { name: "Ada" });
    runIds.failed = failed.run;
    await submit(failed.run, { greeting: "Hi" });
    expectState(await submit(failed.run, { greeting: "Hey" }), "failed");

    const approval = await call("approve-post", {});
    runIds.approval = approval.run;
    await submit(approval.run, { text: "x".repeat(50) });
    expectState(await submit(approval.run, { text: "Hello all" }), "finished");

    const abandoned = await call("greet", { name: "Bob" });
    runIds.abandoned = abandoned.run;
  } finally {
    await client.close();
    await api.close();
  }
  // The server abandons the open run when the pipe closes; wait for its file to end with that record.
  const files = await waitForLedgers(ledgerDir, Object.values(runIds));
  const ledgers = Object.fromEntries(RUN_KINDS.map((k) => [k, files.get(runIds[k])!])) as Record<RunKind, string>;
  return { dir, ledgers, runIds };
}

function expectState(reply: { state: string }, state: string) {
  if (reply.state !== state) throw new Error(`expected the run to be ${state}, got ${JSON.stringify(reply)}`);
}

async function waitForLedgers(dir: string, runs: string[]): Promise<Map<string, string>> {
  const { readFile } = await import("node:fs/promises");
  const deadline = Date.now() + 60_000;
  for (;;) {
    const files = new Map<string, string>();
    for (const name of readdirSync(dir)) {
      const run = runs.find((r) => name.endsWith(`-${r}.jsonl`));
      if (run) files.set(run, join(dir, name));
    }
    const closed = await Promise.all([...files.values()].map(async (f) => /"type":"run_(finished|failed|abandoned)"/.test((await readFile(f, "utf8")).trim().split("\n").at(-1) ?? "")));
    if (files.size === runs.length && closed.every(Boolean)) return files;
    if (Date.now() > deadline) throw new Error(`ledgers of ${runs.join(", ")} did not all close in ${dir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
