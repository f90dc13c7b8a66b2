// The authoring tools that do heavy work (stepgate_validate, stepgate_try,
// stepgate_test) share the server's event loop with every session. Through
// the built CLI over HTTP with two SDK clients: an argument past its bound
// (src/authoring/input-limits.ts) is refused naming the argument and the
// limit; a draft at the bound is validated while the other client's pings
// are timed (printed, never asserted: docs/architecture.md quotes the
// figure); and a long stepgate_test with mutate lets another session's
// ping through before it finishes, since each case and mutant starts on a
// fresh turn of the loop.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHORING_INPUT_LIMITS } from "../../src/authoring/input-limits.js";
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
