// Approve gates over `stepgate --http` with 2026-07-28 clients, which cannot
// be sent elicitation requests: stepgate_submit answers with an
// input-required result, the SDK client asks its elicitation handler and
// repeats the call with the answer. The verdicts are the run's own; the
// ledger reads as it does for a person asked within the call.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, startCliServer } from "../http/fixtures/cli-server.js";

const ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-approve-http-"));
const server = startCliServer(["--ledger-dir", ledgerDir, join(repoRoot, "test/fixtures/approve.stepfile.yaml"), join(repoRoot, "test/fixtures/approve-mechanical.stepfile.yaml")]);

afterAll(async () => (await server).stop());

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string | boolean> };

/** A 2026-07-28 client; with `answers`, it declares elicitation and answers each request in turn. */
async function connect(answers?: Answer[]) {
  const asked: Array<{ message: string }> = [];
  const client = new Client(
    { name: "approve-http-test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" }, ...(answers ? { capabilities: { elicitation: { form: {} } } } : {}) },
  );
  if (answers) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push({ message: String((request.params as { message: string }).message) });
      return answers.shift() ?? { action: "cancel" };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL((await server).url)));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return { client, asked };
}

function ledger(run: string): Array<Record<string, unknown>> {
  const file = readdirSync(ledgerDir).find((f) => f.endsWith(`${run}.jsonl`));
  return readFileSync(join(ledgerDir, file!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

const text = (reply: { content?: unknown }) => (reply.content as Array<{ text: string }>)[0]!.text;

describe("approve gates over 2026-07-28", () => {
  it("fails preflight with item approval on a client without elicitation", async () => {
    const { client } = await connect();
    const reply = await client.callTool({ name: "approve-post", arguments: {} });
    expect(reply.structuredContent).toMatchObject({ state: "failed", error: "PreflightFailed", details: { item: "approval" } });
    await client.close();
  });

  it("passes the step when the person approves", async () => {
    const { client, asked } = await connect([{ action: "accept", content: { approved: true } }]);
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const done = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "Hello" } } });
    expect(done.structuredContent).toMatchObject({ state: "finished", outputs: { draft: { text: "Hello" } } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain("Publish this post?");
    expect(asked[0]!.message).toContain('"text": "Hello"');
    const records = ledger(run).map((r) => (r.type === "gate" ? `gate ${String(r.gate)} ${String(r.verdict)}` : r.type));
    expect(records).toEqual(["run_started", "step_started", "submit", "gate short pass", "gate person pass", "step_passed", "run_finished"]);
    await client.close();
  });

  it("fails the gate with the person's reason and leaves the attempts left, asking only once the checks pass", async () => {
    const { client, asked } = await connect([{ action: "accept", content: { approved: false, reason: "too casual" } }, { action: "accept", content: { approved: true } }]);
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const tooLong = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "x".repeat(50) } } });
    expect(tooLong.structuredContent).toMatchObject({ failures: [{ gate: "short" }], attempts_left: 1 });
    expect(asked).toHaveLength(0);
    const refused = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "hey all" } } });
    expect(refused.structuredContent).toMatchObject({ state: "failed", error: "GateFailed" });
    expect(text(refused)).toContain("person: declined: too casual");
    expect(asked).toHaveLength(1);
    await client.close();
  });

  it("reports declined: <reason> with an attempt left on the first attempt", async () => {
    const { client } = await connect([{ action: "accept", content: { approved: false, reason: "wrong tone" } }, { action: "accept", content: { approved: true } }]);
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const declined = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "hey all" } } });
    expect(declined.structuredContent).toMatchObject({ state: "running", failures: [{ gate: "person", diagnosis: "declined: wrong tone" }], attempts_left: 1 });
    expect(text(declined)).toContain("1 attempt left");
    const done = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "Hello, everyone." } } });
    expect(done.structuredContent).toMatchObject({ state: "finished", outputs: { draft: { text: "Hello, everyone." } } });
    const gates = ledger(run).filter((r) => r.type === "gate").map((r) => [r.attempt, r.gate, r.verdict]);
    expect(gates).toEqual([
      [1, "short", "pass"],
      [1, "person", "fail"],
      [2, "short", "pass"],
      [2, "person", "pass"],
    ]);
    await client.close();
  });

  it("counts a dismissed or declined form as a refusal", async () => {
    const { client } = await connect([{ action: "decline" }, { action: "cancel" }]);
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const first = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "one" } } });
    expect(first.structuredContent).toMatchObject({ failures: [{ gate: "person", diagnosis: "declined: the person did not approve" }] });
    const second = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "two" } } });
    expect(second.structuredContent).toMatchObject({ error: "GateFailed" });
    expect(text(second)).toContain("declined: the person dismissed the request");
    await client.close();
  });

  it("refuses a repeated call that swaps the waiting output, and keeps asking about the one submitted", async () => {
    // Manual mode: this client sends the repeated calls itself, as a client that alters them would.
    const client = new Client({ name: "approve-http-manual", version: "1.0.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    await client.connect(new StreamableHTTPClientTransport(new URL((await server).url)));
    const submit = (output: unknown, extra: Record<string, unknown> = {}) =>
      client.callTool({ name: "stepgate_submit", arguments: { run, output }, ...extra } as never, { allowInputRequired: true }) as Promise<Record<string, unknown>>;
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const asked = await submit({ text: "Hello" });
    expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { person: { method: "elicitation/create" } } });
    const approve = { inputResponses: { person: { action: "accept", content: { approved: true } } }, requestState: asked.requestState };

    const swapped = await submit({ text: "Something else" }, approve);
    expect(swapped).toMatchObject({ isError: true, structuredContent: { state: "running", waiting_for: "approval" } });
    expect(text(swapped)).toContain("cannot be changed while it waits");
    const call = await client.callTool({ name: "stepgate_call", arguments: { run, operation: "anything" } });
    expect(text(call)).toContain("waiting for a person's approval");
    // The same output without answers asks again; a tampered state is refused by the SDK before Stepgate sees it.
    expect(await submit({ text: "Hello" })).toMatchObject({ resultType: "input_required" });
    await expect(submit({ text: "Hello" }, { ...approve, requestState: `${String(asked.requestState)}x` })).rejects.toThrow(/requestState/);

    const done = await submit({ text: "Hello" }, approve);
    expect(done).toMatchObject({ structuredContent: { state: "finished", outputs: { draft: { text: "Hello" } } } });
    // One submission, one verdict per gate: the refused and repeated calls leave no records.
    expect(ledger(run).map((r) => r.type)).toEqual(["run_started", "step_started", "submit", "gate", "gate", "step_passed", "run_finished"]);
    await client.close();
  });

  it("asks about a mechanical step's output when the run starts, and goes on once approved", async () => {
    const { client, asked } = await connect([{ action: "accept", content: { approved: true } }]);
    const start = await client.callTool({ name: "approve-computed", arguments: { n: 2 } });
    expect(start.structuredContent).toMatchObject({ state: "running", step: { step: "confirm" }, completed: ["double"] });
    expect(asked[0]!.message).toContain('"value": 4');
    await client.close();
  });

  it("ends the run with GateFailed when the person refuses a mechanical step's output", async () => {
    const { client } = await connect([{ action: "accept", content: { approved: false, reason: "wrong input" } }]);
    const start = await client.callTool({ name: "approve-computed", arguments: { n: 3 } });
    expect(start.structuredContent).toMatchObject({ state: "failed", error: "GateFailed" });
    expect(text(start)).toContain("person: declined: wrong input");
    await client.close();
  });
});
