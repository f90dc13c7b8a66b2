// --record-cases end to end: serve a stepfile over stdio against a loopback
// API (and a loopback verifier), drive runs with failures and retries, and
// replay what was recorded with `stepgate --test`, which must agree with
// every verdict.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import { stepgate } from "./cli.js";

function stepfileFor(origin: string) {
  return {
    stepgate: "1",
    id: "shelf",
    inputs: { type: "object", required: ["shelf"], properties: { shelf: { type: "string", minLength: 1 } } },
    tools: {
      books: {
        openapi: {
          server: origin,
          document: {
            openapi: "3.1.0",
            paths: {
              "/shelves/{shelf}": { get: { operationId: "listShelf", parameters: [{ name: "shelf", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } } },
              "/books/{id}": { get: { operationId: "getBook", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } } },
            },
          },
        },
        exposes: ["listShelf", "getBook"],
      },
    },
    steps: [
      {
        id: "fetch",
        do: {
          calls: [
            { id: "shelf", operation: "listShelf", arguments: { shelf: { var: "inputs.shelf" } } },
            { id: "books", operation: "getBook", each: { var: "responses.shelf.ids" }, arguments: { id: { var: "item" } }, accept: [404] },
          ],
          output: { titles: { map: [{ var: "responses.books" }, { var: "title" }] } },
        },
        produces: { type: "object" },
      },
      {
        id: "pick",
        tools: ["getBook"],
        instructions: "Pick a book from {{steps.fetch.titles}} and fetch it.",
        produces: { type: "object", required: ["title"], properties: { title: { type: "string" } } },
        retries: 1,
        gates: [{ id: "fetched", message: "pick a title you fetched", predicate: { in: [{ var: "output.title" }, { results: ["getBook", "title"] }] } }],
      },
    ],
  };
}

/**
 * Serve `stepfileOf(api origin)` with --record-cases over stdio against a
 * loopback API answering `routes`, for the describe block it is called in.
 */
function servedRecording(routes: Parameters<typeof startApiFixture>[0], stepfileOf: (origin: string) => { id: string }, name: string) {
  let api: ApiFixture | undefined;
  let served: SpawnedStepgate | undefined;
  const rec = {
    dir: "",
    stepfilePath: "",
    id: "",
    call: async (tool: string, args: Record<string, unknown>) =>
      (await served!.client.callTool({ name: tool, arguments: args })).structuredContent as { run: string; state: string; failures?: unknown[] },
    recorded: (run: string) => join(rec.dir, "cases", `${rec.id}-${run}.cases.yaml`),
  };
  beforeAll(async () => {
    api = await startApiFixture(routes);
    rec.dir = mkdtempSync(join(tmpdir(), `stepgate-record-${name}-`));
    const stepfile = stepfileOf(api.origin);
    rec.id = stepfile.id;
    rec.stepfilePath = join(rec.dir, `${stepfile.id}.stepfile.json`);
    writeFileSync(rec.stepfilePath, JSON.stringify(stepfile, null, 2));
    served = await spawnStepgate(["--record-cases", join(rec.dir, "cases"), "--ledger-dir", join(rec.dir, "ledger"), rec.stepfilePath]);
  });
  afterAll(async () => {
    await served?.close();
    await api?.close();
  });
  return rec;
}

describe("--record-cases", () => {
  const rec = servedRecording(
    [
      { method: "GET", path: "/shelves/s1", answers: [{ json: { ids: ["b1", "b2", "gone"] } }] },
      { method: "GET", path: "/books/b1", answers: [{ json: { id: "b1", title: "Emma", pages: 474 } }] },
      { method: "GET", path: "/books/b2", answers: [{ json: { id: "b2", title: "Dune", pages: 412 } }] },
    ],
    stepfileFor,
    "shelf",
  );
  const { call, recorded } = rec;

  it("records a finished run with a failed attempt, and --test agrees with it", async () => {
    const start = await call("shelf", { shelf: "s1" });
    expect(start.state).toBe("running");
    await call("stepgate_call", { run: start.run, operation: "getBook", arguments: { id: "b2" } });
    expect(await call("stepgate_submit", { run: start.run, output: { title: "Emma" } })).toMatchObject({ state: "running", failures: [{ gate: "fetched" }] });
    await call("stepgate_call", { run: start.run, operation: "getBook", arguments: { id: "b1" } });
    expect(await call("stepgate_submit", { run: start.run, output: { title: "Emma" } })).toMatchObject({ state: "finished" });

    const file = readFileSync(recorded(start.run), "utf8");
    const cases = parse(file) as { cases: Array<{ inputs: unknown; steps: Array<Record<string, unknown>> }> };
    expect(cases.cases[0]!.inputs).toEqual({ shelf: "s1" });
    expect(cases.cases[0]!.steps.map((s) => [s.step, s.expect])).toEqual([
      ["fetch", "pass"],
      ["pick", { fail: ["fetched"] }],
      ["pick", "pass"],
    ]);
    // Full results, and the status of the error the step accepted, so replay can honour `accept`.
    expect(cases.cases[0]!.steps[0]!.calls).toEqual([
      { tool: "listShelf", arguments: { shelf: "s1" }, result: { ids: ["b1", "b2", "gone"] }, is_error: false },
      { tool: "getBook", arguments: { id: "b1" }, result: { id: "b1", title: "Emma", pages: 474 }, is_error: false },
      { tool: "getBook", arguments: { id: "b2" }, result: { id: "b2", title: "Dune", pages: 412 }, is_error: false },
      { tool: "getBook", arguments: { id: "gone" }, result: { error: "not found" }, is_error: true, status: 404 },
    ]);
    expect(cases.cases[0]!.steps[0]!.output).toEqual({ titles: ["Emma", "Dune", null] });

    const replay = await stepgate("--test", rec.stepfilePath, recorded(start.run));
    expect(replay.stdout).toContain("1 case: 1 agree, 0 differ");
    expect(replay.code).toBe(0);
  });

  it("records a failed run, and nothing for a run that ended before any attempt", async () => {
    const start = await call("shelf", { shelf: "s1" });
    await call("stepgate_submit", { run: start.run, output: { title: "Ulysses" } });
    expect(await call("stepgate_submit", { run: start.run, output: { title: "Dune" } })).toMatchObject({ state: "failed" });
    const replay = await stepgate("--test", rec.stepfilePath, recorded(start.run));
    expect(replay.stdout).toContain("ok   3. pick: fail [fetched]");
    expect(replay.code).toBe(0);

    const refused = await call("shelf", { shelf: "" });
    expect(refused.state).toBe("failed");
    expect(readdirSync(join(rec.dir, "cases"))).not.toContain(`shelf-${refused.run}.cases.yaml`);
  });
});

// Offline there is no verifier, so a recorded http gate takes the verdict the
// entry records. Without that, an attempt the verifier refused replays as a
// pass and the run leaves the step the recording retried.
describe("--record-cases with an http gate", () => {
  const rec = servedRecording(
    [{ method: "POST", path: "/verify", answers: [{ json: { pass: false, message: "not yet" } }, { json: { pass: true } }] }],
    (origin) => ({
      stepgate: "1",
      id: "review",
      inputs: { type: "object" },
      tools: { policy: { verifier: { url: `${origin}/verify` } } },
      steps: [
        {
          id: "draft",
          instructions: "Write a note.",
          produces: { type: "object", required: ["note"], properties: { note: { type: "string" } } },
          retries: 1,
          gates: [{ id: "ver", http: { tool: "policy" } }],
        },
        {
          id: "final",
          do: { calls: [], output: { note: { var: "steps.draft.note" } } },
          produces: { type: "object" },
        },
      ],
    }),
    "http",
  );
  const { call } = rec;

  it("replays a verifier's refusal as recorded, and follows the recorded retry", async () => {
    const start = await call("review", {});
    expect(start.state).toBe("running");
    expect(await call("stepgate_submit", { run: start.run, output: { note: "a" } })).toMatchObject({ state: "running", failures: [{ gate: "ver" }] });
    expect(await call("stepgate_submit", { run: start.run, output: { note: "b" } })).toMatchObject({ state: "finished" });

    const path = rec.recorded(start.run);
    const cases = parse(readFileSync(path, "utf8")) as { cases: Array<{ steps: Array<Record<string, unknown>> }> };
    expect(cases.cases[0]!.steps.map((s) => [s.step, s.expect])).toEqual([
      ["draft", { fail: ["ver"] }],
      ["draft", "pass"],
      ["final", "pass"],
    ]);

    const replay = await stepgate("--test", rec.stepfilePath, path);
    expect(replay.stdout).toContain("ok   1. draft: fail [ver]");
    expect(replay.stdout).toContain("skipped offline");
    expect(replay.stdout).toContain("1 case: 1 agree, 0 differ");
    expect(replay.code).toBe(0);
  });
});
