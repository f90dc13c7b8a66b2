// Approve gates through MCP elicitation, with the real CLI over stdio: the
// person is asked only after every other gate passed, a refusal reaches the
// agent with the reason, and a client that cannot be asked fails preflight.
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { cliEnvironment } from "../support/stepgate.js";

const root = resolve(import.meta.dirname, "../..");
const args = [join(root, "bin/stepgate.js"), join(root, "test/fixtures/approve.stepfile.yaml")];

async function connect(answers?: Array<{ approved: boolean; reason?: string }>) {
  const asked: string[] = [];
  const client = new Client({ name: "approve-test", version: "1.0.0" }, answers ? { capabilities: { elicitation: { form: {} } } } : {});
  if (answers) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String((request.params as { message: string }).message));
      const answer = answers.shift()!;
      return { action: "accept", content: answer };
    });
  }
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: cliEnvironment(), stderr: "pipe" }));
  return { client, asked };
}

describe("approve gates", () => {
  it("fails preflight with item approval on a client without elicitation", async () => {
    const { client } = await connect();
    const reply = await client.callTool({ name: "approve-post", arguments: {} });
    expect(reply.structuredContent).toMatchObject({ state: "failed", error: "PreflightFailed", details: { item: "approval" } });
    await client.close();
  });

  it("asks the person only after the other gates pass, and passes the reason back on refusal", async () => {
    const { client, asked } = await connect([{ approved: false, reason: "too casual" }, { approved: true }]);
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const tooLong = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "x".repeat(50) } } });
    expect(tooLong.structuredContent).toMatchObject({ failures: [{ gate: "short" }] });
    expect(asked).toHaveLength(0);
    const refused = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "hey all" } } });
    expect(refused.structuredContent).toMatchObject({ state: "failed", error: "GateFailed" });
    expect((refused.content as Array<{ text: string }>)[0]!.text).toContain("person: declined: too casual");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("Publish this post?");
    expect(asked[0]).toContain('"text": "hey all"');
    await client.close();
  });

  it("passes when the person approves", async () => {
    const { client } = await connect([{ approved: true }]);
    const start = await client.callTool({ name: "approve-post", arguments: {} });
    const run = (start.structuredContent as { run: string }).run;
    const done = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "Hello" } } });
    expect(done.structuredContent).toMatchObject({ state: "finished", outputs: { draft: { text: "Hello" } } });
    await client.close();
  });

  it("is skipped and named by stepgate --test, which has no person to ask", () => {
    const out = execFileSync(process.execPath, [join(root, "bin/stepgate.js"), "--test", join(root, "test/fixtures/approve.stepfile.yaml")], { encoding: "utf8" });
    expect(out).toContain("skipped offline: person (approve)");
    expect(out).toContain("2 cases: 2 agree, 0 differ");
  });
});
