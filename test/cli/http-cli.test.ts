// `stepgate --http 0` as users start it: the built CLI, a whole run over
// Streamable HTTP with the SDK client, and runs owned by their session.
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, startCliServer } from "../http/fixtures/cli-server.js";
import { AUTHORING_TOOLS } from "../../src/authoring/index.js";

const server = startCliServer([join(repoRoot, "test/fixtures/greet.stepfile.yaml")]);

afterAll(async () => (await server).stop());

async function connect(era: "2025-11-25" | "2026-07-28" = "2025-11-25") {
  const client = new Client({ name: "http-cli-test", version: "1.0.0" }, era === "2026-07-28" ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL((await server).url)));
  return client;
}

describe("stepgate --http", () => {
  it("serves a whole run at /mcp on 127.0.0.1", async () => {
    const client = await connect();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet", "stepgate_call", "stepgate_submit", ...AUTHORING_TOOLS.map((t) => t.name)]);
    const first = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    const run = (first.structuredContent as { run: string }).run;
    await client.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hello, Ada" } } });
    const done = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { signature: "S" } } });
    expect(done.structuredContent).toMatchObject({ state: "finished" });
    await client.close();
  });

  it("serves a whole run over the 2026-07-28 revision, whose runs 2025 sessions cannot reach", async () => {
    const modern = await connect("2026-07-28");
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const first = await modern.callTool({ name: "greet", arguments: { name: "Ada" } });
    const run = (first.structuredContent as { run: string }).run;
    const legacy = await connect();
    const stolen = await legacy.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hello, Ada" } } });
    expect(stolen.structuredContent).toMatchObject({ error: "RunNotActive" });
    await modern.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hello, Ada" } } });
    const done = await modern.callTool({ name: "stepgate_submit", arguments: { run, output: { signature: "S" } } });
    expect(done.structuredContent).toMatchObject({ state: "finished" });
    await modern.close();
    await legacy.close();
  });

  it("gives RunNotActive to a session naming another session's run", async () => {
    const owner = await connect();
    const other = await connect();
    const first = await owner.callTool({ name: "greet", arguments: { name: "Ada" } });
    const run = (first.structuredContent as { run: string }).run;
    const stolen = await other.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hello, Ada" } } });
    expect(stolen.structuredContent).toMatchObject({ error: "RunNotActive" });
    const mine = await owner.callTool({ name: "stepgate_submit", arguments: { run, output: { greeting: "Hello, Ada" } } });
    expect(mine.structuredContent).toMatchObject({ state: "running", step: { step: "sign" } });
    await owner.close();
    await other.close();
  });
});
