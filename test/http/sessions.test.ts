// Session lifecycle over HTTP: unknown and missing session ids, the GET event
// stream, idle reaping (endSession for 2025 sessions and for the shared 2026
// one), and that reaped sessions release everything they held.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it, type TestContext } from "vitest";
import { startHttpServer } from "../../src/http/server.js";
import { SessionStore } from "../../src/http/sessions.js";
import { newSession } from "../../src/session.js";
import { connectClient, httpTransportOf, INITIALIZE, MCP_HEADERS, rawRequest, startHarness, type Harness } from "./fixtures/harness.js";
import { budget, REPLY_MS } from "../support/budget.js";

// Short enough that reaping shows within a test, long enough that a client's
// back-to-back requests never look idle on a loaded machine, where this
// process can wait a second or more for a core between two of them.
const IDLE_MS = 3_000;

const run = promisify(execFile);
/**
 * A harness closed when the test that made it finishes. The idle-reaping
 * tests run concurrently (each waits out real idle timers, about 40 s one
 * after another), so no hook may close another test's harness: each test
 * passes its own context.
 */
async function harness(context: TestContext, idleMs?: number): Promise<Harness> {
  const h = await startHarness(idleMs === undefined ? {} : { idleMs });
  context.onTestFinished(() => h.server.close());
  return h;
}

/** Reaping runs on a timer of IDLE_MS; give it that plus a reply's time to show. */
async function until(condition: () => boolean, timeoutMs = IDLE_MS + REPLY_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function openRaw(port: number): Promise<string> {
  const response = await rawRequest({ port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  return String(response.headers["mcp-session-id"]);
}

describe("session ids", () => {
  it("answers an unknown session id with 404 and a JSON-RPC error", async (context) => {
    const h = await harness(context);
    for (const method of ["POST", "GET", "DELETE"]) {
      const response = await rawRequest({
        port: h.server.port,
        method,
        headers: { ...MCP_HEADERS, "mcp-session-id": "no-such-session", "mcp-protocol-version": "2025-11-25" },
        ...(method === "POST" ? { body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' } : {}),
      });
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 }, id: null });
    }
  });

  it("answers a non-initialize 2025 request without a session id with 400", async (context) => {
    const h = await harness(context);
    const response = await rawRequest({
      port: h.server.port,
      headers: MCP_HEADERS,
      body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    });
    expect(response.status).toBe(400);
    expect(h.factory.created).toHaveLength(0);
  });

  it("answers a failure inside MCP handling with a JSON-RPC 500, logging the cause", async () => {
    const log: string[] = [];
    const ended: string[] = [];
    const server = await startHttpServer({
      port: 0,
      idleMs: 60_000,
      log: (line) => log.push(line),
      factory: {
        create: () => {
          throw new Error("secret detail");
        },
        endSession: (session) => void ended.push(session.id),
      },
    });
    try {
      const response = await rawRequest({ port: server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
      expect(response.status).toBe(500);
      expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null });
      expect(response.body).not.toContain("secret detail");
      expect(log.some((line) => line.includes("secret detail"))).toBe(true);
      expect(server.sessions.size).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("answers paths other than /mcp with a JSON-RPC 404", async (context) => {
    const h = await harness(context);
    const response = await rawRequest({ port: h.server.port, path: "/", method: "GET" });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", id: null });
  });

  it("answers other methods with 405", async (context) => {
    const h = await harness(context);
    const response = await rawRequest({ port: h.server.port, method: "PUT", headers: MCP_HEADERS, body: "{}" });
    expect(response.status).toBe(405);
  });
});

describe("GET event stream", () => {
  it("opens an SSE stream for a live session", async (context) => {
    const h = await harness(context);
    const id = await openRaw(h.server.port);
    const controller = new AbortController();
    const response = await fetch(h.server.url, {
      headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    controller.abort();
  });
});

/** A child process under tsx that opens 220 sessions and waits for them to idle out twice: minutes on a loaded machine. */
const LEAK_CHECK_MS = 5 * 60_000;

describe.concurrent("idle reaping", () => {
  // Vitest runs at most 5 of these at once (maxConcurrency): the longest start first.
  it("reaped sessions release their memory: 200 sessions idle out, store empty, every server collected, heap near baseline", async ({ expect }) => {
    const { stdout } = await run(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "test/http/fixtures/leak-check.ts", "200"],
      { timeout: LEAK_CHECK_MS },
    );
    const result = JSON.parse(stdout.trim().split("\n").at(-1) as string) as Record<string, number>;
    expect(result["opened"]).toBe(200);
    expect(result["storeSize"]).toBe(0);
    expect(result["counters"]).toBe(0);
    expect(result["serversAlive"]).toBe(0);
    expect(result["ended"]).toBe(220);
    // 200 live sessions cost a few MiB; what stays after reaping is the
    // test's own bookkeeping (session lists, log lines), well under that.
    expect((result["afterMiB"] as number) - (result["baselineMiB"] as number)).toBeLessThan(4);
  }, LEAK_CHECK_MS + budget({ replies: 1 }));

  it.for([["legacy"], ["modern"]] as const)("never reaps a %s session while a call is still being answered", async ([era], context) => {
    const { expect } = context;
    const h = await harness(context, IDLE_MS);
    const client = await connectClient(h.server.url, era);
    // The call outlasts the idle limit twice over.
    const result = await client.callTool({ name: "sleep", arguments: { ms: 2 * IDLE_MS } });
    expect(result.content).toEqual([{ type: "text", text: `slept ${2 * IDLE_MS}` }]);
    expect(h.factory.ended).toHaveLength(0);
    // Once answered, the session idles out as usual.
    await until(() => h.factory.ended.length === 1);
    await client.close();
  });

  it("closes a 2025 session idle for idleMs and calls endSession", async (context) => {
    const { expect } = context;
    const h = await harness(context, IDLE_MS);
    const client = await connectClient(h.server.url, "legacy");
    const id = httpTransportOf(client).sessionId as string;
    await client.callTool({ name: "counter", arguments: {} });
    expect(h.factory.counters.get(id)).toBe(1);
    await until(() => h.factory.ended.some((s) => s.id === id));
    expect(h.server.sessions.size).toBe(0);
    expect(h.factory.counters.has(id)).toBe(false);
    expect(h.log.some((line) => line.includes(`${id} ended (idle)`))).toBe(true);
    // The reaped session is gone for the client too.
    const response = await rawRequest({
      port: h.server.port,
      headers: { ...MCP_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      body: '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
    });
    expect(response.status).toBe(404);
    await client.close();
  });

  it("reaps a session whose only activity is an open GET stream, ending the stream", async (context) => {
    const { expect } = context;
    const h = await harness(context, IDLE_MS);
    const id = await openRaw(h.server.port);
    const response = await fetch(h.server.url, {
      headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    });
    expect(response.status).toBe(200);
    await until(() => h.factory.ended.some((s) => s.id === id));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
  });

  it("keeps a session that stays active", async (context) => {
    const { expect } = context;
    const h = await harness(context, IDLE_MS);
    const client = await connectClient(h.server.url, "legacy");
    // Twice the idle limit in all, a third of it between calls.
    for (let i = 0; i < 6; i++) {
      await client.callTool({ name: "counter", arguments: {} });
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 3));
    }
    expect(h.factory.ended).toHaveLength(0);
    await client.close();
  });

  it("ends the shared 2026 session after idleMs without 2026 traffic, and opens a fresh one", async (context) => {
    const { expect } = context;
    const h = await harness(context, IDLE_MS);
    const client = await connectClient(h.server.url, "modern");
    await client.callTool({ name: "counter", arguments: {} });
    const shared = h.factory.created.at(-1)?.id as string;
    await until(() => h.factory.ended.some((s) => s.id === shared));
    const again = await client.callTool({ name: "counter", arguments: {} });
    expect((again.structuredContent as { count: number }).count).toBe(1);
    expect(h.factory.created.at(-1)?.id).not.toBe(shared);
    await client.close();
  });

  it("store: sweep ends only sessions idle for idleMs", async ({ expect }) => {
    let now = 0;
    const closed: string[] = [];
    const store = new SessionStore({ idleMs: 100, now: () => now });
    for (const id of ["a", "b"]) {
      store.add({ kind: "t", session: newSession(id), close: async () => void closed.push(id) });
    }
    now = 60;
    store.touch("b");
    now = 100;
    await store.sweep();
    expect(closed).toEqual(["a"]);
    await store.end("a", "deleted");
    expect(closed).toEqual(["a"]);
    const release = store.hold("b");
    now = 1_000;
    await store.sweep();
    expect(closed).toEqual(["a"]);
    release();
    release();
    now = 1_099;
    await store.sweep();
    expect(closed).toEqual(["a"]);
    await store.closeAll();
    expect(closed).toEqual(["a", "b"]);
    expect(store.size).toBe(0);
    // A session opened by a request still in flight at shutdown does not outlive it.
    store.add({ kind: "t", session: newSession("late"), close: async () => void closed.push("late") });
    await until(() => closed.includes("late"));
    expect(store.size).toBe(0);
  });
});
