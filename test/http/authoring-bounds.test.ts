// The authoring tools that do heavy work (stepgate_validate, stepgate_try,
// stepgate_test) share the server's event loop with every session. Through
// the built CLI over HTTP with two SDK clients: an argument past its bound
// (src/authoring/input-limits.ts: bytes, steps, cases, mutants) is refused
// naming the argument and the limit, and tools/list states every bound in
// the tool's description; a draft at the bound is validated while the other
// client's pings are timed (printed, never asserted: docs/architecture.md
// quotes the figure); the largest stepgate_test the bounds allow (a draft
// at the text bound, a cases file as large as fits, every case a whole run)
// and a long one with mutate let another session's pings through before
// they finish, since each case and mutant starts on a fresh turn of the loop.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHORING_COUNT_LIMITS, AUTHORING_INPUT_LIMITS, OUTLINE_LIMITS } from "../../src/authoring/input-limits.js";
import { budget } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";
import { startCliServer, type CliServer } from "./fixtures/cli-server.js";
import { connectClient } from "./fixtures/harness.js";

interface Answer {
  isError?: boolean;
  content: Array<{ text: string }>;
  structuredContent?: Record<string, unknown>;
}

/** The heaviest draft shape measured per byte: agent steps with a predicate and a schema gate each, as many as fit in `bytes`. */
function heavyDraft(bytes: number): string {
  const head = ['stepgate: "1"', "id: heavy", "description: As many gated steps as fit.", "inputs: { type: object, properties: { name: { type: string } } }", "steps:"];
  const step = (i: number) => [
    `  - id: s${i}`,
    `    instructions: "Do {{inputs.name}} ${i}."`,
    "    produces: { type: object, required: [a], properties: { a: { type: string }, b: { type: array, items: { type: integer } } } }",
    "    gates:",
    `      - { id: g${i}, message: m, predicate: { in: [{ var: inputs.name }, { var: output.a }] } }`,
    `      - { id: h${i}, schema: { properties: { a: { minLength: 1, pattern: "^[a-z]+$" } } } }`,
  ];
  const lines = [...head];
  for (let i = 0; ; i++) {
    const next = [...lines, ...step(i)];
    if (Buffer.byteLength(`${next.join("\n")}\n`) > bytes) break;
    lines.splice(0, lines.length, ...next);
  }
  return `${lines.join("\n")}\n`;
}

/** `steps` steps as small as a step is (an agent step and its instruction), `id: many`. */
function manySteps(steps: number): string {
  return ['stepgate: "1"', "id: many", "description: d", "steps:", ...Array.from({ length: steps }, (_, i) => `  - { id: s${i}, instructions: x }`), ""].join("\n");
}

/** Cases for `draft` (a heavyDraft): as many whole runs (every step passing) as fit in `bytes`, at most `most`, as JSON. */
function wholeRunCases(draft: string, bytes: number, most: number): { text: string; count: number } {
  const steps = [...draft.matchAll(/^ {2}- id: (s\d+)$/gm)].map((m) => ({ step: m[1], output: { a: "x" }, expect: "pass" }));
  const cases: unknown[] = [];
  let text = JSON.stringify({ cases });
  while (cases.length < most) {
    const next = JSON.stringify({ cases: [...cases, { name: `c${cases.length}`, inputs: { name: "x" }, steps }] });
    if (Buffer.byteLength(next) > bytes) break;
    cases.push({ name: `c${cases.length}`, inputs: { name: "x" }, steps });
    text = next;
  }
  return { text, count: cases.length };
}

/** Pings from `client` one after another until `done` settles; each one's round trip in ms, and how many answered before it settled. */
async function pingWhile(client: Client, done: Promise<unknown>): Promise<{ times: number[]; before: number }> {
  let settled = false;
  void done.finally(() => (settled = true));
  const times: number[] = [];
  let before = 0;
  while (!settled) {
    const start = performance.now();
    await client.ping();
    times.push(performance.now() - start);
    if (!settled) before += 1;
  }
  return { times, before };
}

let server: CliServer;
let author: Client;
let other: Client;
beforeAll(async () => {
  server = await startCliServer(["--ledger-dir", join(REPO_ROOT, "node_modules/.cache/authoring-bounds-ledgers"), "federal-register-watch"]);
  author = await connectClient(server.url);
  other = await connectClient(server.url);
}, budget({ starts: 1, replies: 2 }));
afterAll(async () => {
  await server?.stop();
});

describe("authoring inputs are bounded, and heavy work leaves room for other sessions", () => {
  it("refuses text, cases or accepted past their bound, naming the argument and the limit", async () => {
    const { text: textMost, cases: casesMost } = AUTHORING_INPUT_LIMITS;
    const over = heavyDraft(textMost) + "#".repeat(textMost);
    const calls: Array<[string, Record<string, unknown>, string, number]> = [
      ["stepgate_validate", { text: over }, "text", textMost],
      ["stepgate_try", { text: over }, "text", textMost],
      ["stepgate_test", { stepfile: "federal-register-watch", cases: "#".repeat(casesMost + 1) }, "cases", casesMost],
    ];
    for (const [name, args, argument, most] of calls) {
      const answer = (await author.callTool({ name, arguments: args })) as Answer;
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toMatch(new RegExp(`^${name} refused: ${argument} is \\d+ bytes, and ${name} takes at most ${most} bytes \\(${most / 1024} KiB\\) of ${argument}`));
    }
  }, budget({ replies: 3 }));

  it("refuses a draft past the steps bound, cases past the cases bound and mutants past theirs, naming the bound", async () => {
    const { steps, cases: most, mutants } = AUTHORING_COUNT_LIMITS;
    const over = manySteps(steps + 1);
    expect(Buffer.byteLength(over)).toBeLessThan(AUTHORING_INPUT_LIMITS.text);
    for (const [name, args] of [
      ["stepgate_validate", { text: over }],
      ["stepgate_try", { text: over }],
      ["stepgate_test", { text: over, cases: "cases: []" }],
    ] as const) {
      const answer = (await author.callTool({ name, arguments: args })) as Answer;
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toBe(`${name} refused: text holds ${steps + 1} steps, and ${name} takes at most ${steps} steps in one call: every session of this server waits while one is checked, so split the draft or its cases`);
    }
    // At the bound the draft is the tool's to judge.
    expect(((await author.callTool({ name: "stepgate_validate", arguments: { text: manySteps(steps) } })) as Answer).content[0]!.text).not.toMatch(/refused/);

    const small = ['stepgate: "1"', "id: small", "description: d", "inputs: { type: object }", "steps:", "  - { id: s, instructions: x, produces: { type: object }, gates: [{ id: g, message: m, predicate: true }] }", ""].join("\n");
    const kase = (i: number) => ({ name: `c${i}`, steps: [{ step: "s", output: {}, expect: "pass" }] });
    const tooMany = JSON.stringify({ cases: Array.from({ length: most + 1 }, (_, i) => kase(i)) });
    const refused = (await author.callTool({ name: "stepgate_test", arguments: { text: small, cases: tooMany } })) as Answer;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe(`stepgate_test refused: cases holds ${most + 1} cases, and stepgate_test takes at most ${most} cases in one call: every session of this server waits while one is checked, so split the draft or its cases`);
    const atBound = (await author.callTool({ name: "stepgate_test", arguments: { text: small, cases: JSON.stringify({ cases: Array.from({ length: most }, (_, i) => kase(i)) }) } })) as Answer;
    expect(atBound.isError, atBound.content[0]!.text).toBeFalsy();
    expect((atBound.structuredContent as { cases: unknown[] }).cases).toHaveLength(most);

    const overMutants = (await author.callTool({ name: "stepgate_test", arguments: { text: small, cases: JSON.stringify({ cases: [kase(0)] }), mutate: true, mutants: mutants + 1 } })) as Answer;
    expect(overMutants.isError).toBe(true);
    expect(overMutants.content[0]!.text).toBe(`stepgate_test: mutants must be a whole number of at least 1 and at most ${mutants} (every session of this server shares its work)`);
  }, budget({ replies: 8 }));

  it("states every bound in the tool's description", async () => {
    const { tools } = await author.listTools();
    const description = (name: string) => tools.find((t) => t.name === name)?.description ?? "";
    const kib = (bytes: number) => `${bytes / 1024} KiB`;
    const text = `text at most ${kib(AUTHORING_INPUT_LIMITS.text)} (${AUTHORING_INPUT_LIMITS.text} bytes of UTF-8) and ${AUTHORING_COUNT_LIMITS.steps} steps`;
    expect(description("stepgate_validate")).toContain(`Limits: ${text};`);
    expect(description("stepgate_try")).toContain(`Limits: ${text};`);
    expect(description("stepgate_test")).toContain(
      `Limits: ${text}; cases at most ${kib(AUTHORING_INPUT_LIMITS.cases)} and ${AUTHORING_COUNT_LIMITS.cases} cases; accepted at most ${kib(AUTHORING_INPUT_LIMITS.accepted)}; mutants at most ${AUTHORING_COUNT_LIMITS.mutants};`,
    );
    expect(description("stepgate_outline")).toContain(`Limits: markdown at most ${kib(OUTLINE_LIMITS.markdownBytes)} and a procedure of at most ${OUTLINE_LIMITS.steps} steps;`);
    expect(description("stepgate_inspect_api")).toContain("Limits: a document (given or fetched) at most --response-bytes (10 MiB by default).");
    const test = tools.find((t) => t.name === "stepgate_test")!;
    expect((test.inputSchema.properties as Record<string, { maximum?: number }>).mutants!.maximum).toBe(AUTHORING_COUNT_LIMITS.mutants);
  }, budget({ replies: 1 }));

  it("answers another session's pings before the largest stepgate_test the bounds allow finishes", async () => {
    const draft = heavyDraft(AUTHORING_INPUT_LIMITS.text);
    const { text: cases, count } = wholeRunCases(draft, AUTHORING_INPUT_LIMITS.cases, AUTHORING_COUNT_LIMITS.cases);
    expect(count).toBeGreaterThan(10);
    // Once with one case, so every module the call imports is loaded: an import's file reads would let a ping through by themselves.
    const warm = (await author.callTool({ name: "stepgate_test", arguments: { text: draft, cases: wholeRunCases(draft, AUTHORING_INPUT_LIMITS.cases, 1).text } })) as Answer;
    expect(warm.isError, warm.content[0]!.text).toBeFalsy();
    const tested = author.callTool({ name: "stepgate_test", arguments: { text: draft, cases } }) as Promise<Answer>;
    const { before, times } = await pingWhile(other, tested);
    const answer = await tested;
    expect(answer.isError, answer.content[0]!.text).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ ok: true });
    expect((answer.structuredContent as { cases: Array<{ ok: boolean }> }).cases.filter((c) => c.ok)).toHaveLength(count);
    console.log(`stepgate_test of ${Buffer.byteLength(draft)} bytes of draft and ${count} whole-run cases in ${Buffer.byteLength(cases)} bytes: ${before} pings answered before it, the longest ${Math.round(Math.max(...times))} ms`);
    // Orders, not timers: pings were answered while it ran, not only one that slipped in as it started (see below).
    expect(before).toBeGreaterThan(1);
  }, budget({ replies: 40 }));

  it("validates a draft at the bound while another session's pings are timed", async () => {
    const draft = heavyDraft(AUTHORING_INPUT_LIMITS.text);
    expect(Buffer.byteLength(draft)).toBeLessThanOrEqual(AUTHORING_INPUT_LIMITS.text);
    // Once small, so the modules validation imports are loaded and what is timed is the work.
    expect(((await author.callTool({ name: "stepgate_validate", arguments: { text: heavyDraft(2048) } })) as Answer).isError).toBeFalsy();
    const started = performance.now();
    const validated = author.callTool({ name: "stepgate_validate", arguments: { text: draft } }) as Promise<Answer>;
    const { times } = await pingWhile(other, validated);
    const answer = await validated;
    const took = performance.now() - started;
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ valid: true });
    // Measured, not asserted (a loaded machine varies by 10x): the longest wait of the other session.
    console.log(`stepgate_validate of ${Buffer.byteLength(draft)} bytes: ${Math.round(took)} ms; the other session's longest ping ${Math.round(Math.max(...times))} ms over ${times.length} pings`);
  }, budget({ replies: 40 }));

  it("answers another session's ping before a long stepgate_test with mutate finishes", async () => {
    const cases = readFileSync(join(REPO_ROOT, "awesome-stepfiles/legal/federal-register-watch/federal-register-watch.cases.yaml"), "utf8");
    // Once without mutate, so every module the call imports is loaded: an import's file reads would let a ping through by themselves.
    const plain = author.callTool({ name: "stepgate_test", arguments: { stepfile: "federal-register-watch", cases } }) as Promise<Answer>;
    const { times } = await pingWhile(other, plain);
    expect((await plain).isError).toBeFalsy();
    console.log(`stepgate_test of a ${Buffer.byteLength(cases)}-byte cases file: the other session's longest ping ${Math.round(Math.max(...times))} ms over ${times.length} pings`);
    const tested = author.callTool({ name: "stepgate_test", arguments: { stepfile: "federal-register-watch", cases, mutate: true, mutants: 200 } }) as Promise<Answer>;
    // The test's request is on its way first; the pings follow it.
    const { before } = await pingWhile(other, tested);
    const answer = await tested;
    expect(answer.isError).toBeFalsy();
    expect(answer.content[0]!.text).toMatch(/mutant/);
    // More than one: a ping can slip in while the call starts (1 when runs did not yield: measured), many when each run starts on a fresh turn.
    expect(before).toBeGreaterThan(1);
  }, budget({ replies: 40 }));
});
