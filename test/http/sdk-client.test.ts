// HTTP mode driven by the official v2 SDK client over both protocol eras:
// the 2025-11-25 session protocol (initialize, Mcp-Session-Id) and the
// 2026-07-28 revision (server/discover, per-request _meta, no session).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { connectClient, httpTransportOf, startHarness, type Harness } from "./fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.server.close());

async function count(client: Client): Promise<number> {
  const result = await client.callTool({ name: "counter", arguments: {} });
  return (result.structuredContent as { count: number }).count;
}

// The same tool round trip whichever era the client negotiated.
async function expectListAndCall(client: Client, era: string): Promise<void> {
  expect(client.getNegotiatedProtocolVersion()).toBe(era);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["echo", "counter", "sleep"]);
  const echoed = await client.callTool({ name: "echo", arguments: { text: "hello" } });
  expect(echoed.content).toEqual([{ type: "text", text: "hello" }]);
}

describe("2025-11-25 sessions", () => {
  it("initializes, lists and calls tools", async () => {
    const client = await connectClient(h.server.url, "legacy");
    await expectListAndCall(client, "2025-11-25");
    expect(httpTransportOf(client).sessionId).toBeTypeOf("string");
    await client.close();
  });

  it("keeps each session's state apart across many concurrent sessions", async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => connectClient(h.server.url, "legacy")));
    // Session i calls the counter i+1 times, all sessions interleaved.
    const results = await Promise.all(
      clients.map(async (client, i) => {
        let last = 0;
        for (let n = 0; n <= i; n++) last = await count(client);
        return last;
      }),
    );
    expect(results).toEqual(clients.map((_, i) => i + 1));
    await Promise.all(clients.map((client) => client.close()));
  });

  it("DELETE ends the session and calls endSession; the id is then unknown", async () => {
    const client = await connectClient(h.server.url, "legacy");
    await count(client);
    const transport = httpTransportOf(client);
    const id = transport.sessionId;
    expect(id).toBeTypeOf("string");
    expect(h.server.sessions.has(id as string)).toBe(true);
    await transport.terminateSession();
    expect(h.factory.ended.map((s) => s.id)).toContain(id);
    expect(h.server.sessions.has(id as string)).toBe(false);
    expect(h.factory.counters.has(id as string)).toBe(false);
    await client.close();
  });

  it("closing the server ends every open session", async () => {
    const other = await startHarness();
    const clients = await Promise.all([1, 2, 3].map(() => connectClient(other.server.url, "legacy")));
    const ids = clients.map((c) => httpTransportOf(c).sessionId);
    await other.server.close();
    expect(other.factory.ended.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(other.server.sessions.size).toBe(0);
  });
});

describe("2026-07-28 revision", () => {
  it("negotiates the modern era, lists and calls tools without a session id", async () => {
    const client = await connectClient(h.server.url, "modern");
    await expectListAndCall(client, "2026-07-28");
    expect(httpTransportOf(client).sessionId).toBeUndefined();
    await client.close();
  });

  it("serves every 2026 request from one shared session, apart from 2025 sessions", async () => {
    const modernA = await connectClient(h.server.url, "modern");
    const modernB = await connectClient(h.server.url, "modern");
    const legacy = await connectClient(h.server.url, "legacy");
    const first = await count(modernA);
    expect(await count(modernB)).toBe(first + 1);
    expect(await count(legacy)).toBe(1);
    await Promise.all([modernA.close(), modernB.close(), legacy.close()]);
  });
});
