// Issue 12, hostile clients over HTTP: bodies nested deeper than
// MAX_JSON_DEPTH are refused with 400 before the SDK sees them (and without
// recursion), --max-sessions answers 503 with a JSON-RPC error and
// Retry-After when every session holds a run, and sessions whose client
// never followed its `initialize` are reaped within seconds instead of at
// the idle timeout. Issue 22: at the cap the longest-idle session without
// an active run makes room, so idle sessions never lock a new client out.
import { afterEach, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../middleware/json-depth.js";
import { SessionStore } from "../../src/http/sessions.js";
import { newSession } from "../../src/session.js";
import { join } from "node:path";
import { repoRoot, startCliServer } from "./fixtures/cli-server.js";
import { connectClient, httpTransportOf, INITIALIZE, MCP_HEADERS, rawRequest, startHarness, type Harness } from "./fixtures/harness.js";

const harnesses: Harness[] = [];
async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(options);
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.server.close()));
});

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const call = (args: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"deep":${args}}}}`;

describe("nesting depth", () => {
  it("counts brackets outside strings only", () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${"[".repeat(1000)}","b":"\\"[[["}`, 2)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    // A million levels in one pass, no recursion.
    expect(nestsDeeperThan(nested(1_000_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it("refuses a body nested a million levels deep with 400, and keeps serving others", async () => {
    const h = await harness();
    const refused = await rawRequest({ port: h.server.port, headers: MCP_HEADERS, body: call(nested(1_000_000)) });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: `Bad Request: the body nests deeper than ${MAX_JSON_DEPTH} levels` }, id: null });
    expect(h.factory.created).toHaveLength(0);
    const client = await connectClient(h.server.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it("lets a body at the limit through to MCP handling", async () => {
    const h = await harness();
    // An initialize whose params carry 60 levels: within 64 with the envelope.
    const deep = JSON.parse(`${'{"a":'.repeat(60)}1${"}".repeat(60)}`) as object;
    const body = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, capabilities: { experimental: deep } } });
    expect(nestsDeeperThan(body, MAX_JSON_DEPTH)).toBe(false);
    const response = await rawRequest({ port: h.server.port, headers: MCP_HEADERS, body });
    expect(response.status).toBe(200);
    expect(h.factory.created).toHaveLength(1);
  });
});

describe("open sessions", () => {
  // The test factory tells the store nothing of runs, so every session counts as holding one.
  it("answers initialize past --max-sessions with 503, a JSON-RPC error and Retry-After when every session holds a run", async () => {
    const h = await harness({ maxSessions: 2 });
    for (let i = 0; i < 2; i++) expect((await rawRequest({ port: h.server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) })).status).toBe(200);
    const refused = await rawRequest({ port: h.server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("10");
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringContaining("--max-sessions") }, id: null });
    expect(h.server.sessions.size).toBe(2);
  });

  it("store: reaps a session whose client never followed its initialize, after the grace", async () => {
    let now = 0;
    const closed: string[] = [];
    const store = new SessionStore({ idleMs: 1_800_000, initGraceMs: 10_000, maxSessions: 3, now: () => now });
    const add = (id: string, awaitingClient: boolean) => store.add({ kind: "t", session: newSession(id), close: async () => void closed.push(id) }, { awaitingClient });
    add("silent", true);
    add("talked", true);
    add("modern", false);
    expect(store.size).toBe(3);
    now = 5_000;
    store.touch("talked");
    now = 10_000;
    await store.sweep();
    expect(closed).toEqual(["silent"]);
    expect(store.size).toBe(2);
    // A confirmed session is only reaped at the idle timeout.
    now = 1_000_000;
    await store.sweep();
    expect(closed).toEqual(["silent"]);
    await store.closeAll();
  });
});

describe("the session store at --max-sessions", () => {
  function store(runs: Record<string, { active: boolean; started: boolean }>, options: { maxSessions?: number; now?: () => number } = {}) {
    const closed: Array<[string, string]> = [];
    const sessions = new SessionStore({
      idleMs: 1_800_000,
      runlessIdleMs: 300_000,
      maxSessions: options.maxSessions ?? 3,
      runs: (session) => runs[session.id] ?? { active: false, started: false },
      onEnded: (session, reason) => void closed.push([session.id, reason]),
      ...(options.now ? { now: options.now } : {}),
    });
    const add = (id: string) => sessions.add({ kind: "t", session: newSession(id), close: async () => undefined });
    return { sessions, add, closed };
  }

  it("closes the longest-idle session without an active run to make room, never one with a run or a request in flight", async () => {
    let now = 0;
    const { sessions, add, closed } = store({ "with-run": { active: true, started: true }, busy: { active: false, started: true } }, { maxSessions: 4, now: () => now });
    add("with-run");
    now = 1;
    add("busy");
    now = 2;
    add("idle-old");
    now = 3;
    add("idle-new");
    const release = sessions.hold("busy");
    expect(sessions.makeRoom()).toBe(true);
    expect(sessions.has("idle-old")).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toEqual([["idle-old", "evicted"]]);
    add("newcomer");
    expect(sessions.makeRoom()).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed.map(([id]) => id)).toEqual(["idle-old", "idle-new"]);
    release();
    await sessions.closeAll();
  });

  it("refuses (makeRoom false) only when every session holds an active run", async () => {
    const { sessions, add, closed } = store({ a: { active: true, started: true }, b: { active: true, started: true } }, { maxSessions: 2 });
    add("a");
    add("b");
    expect(sessions.makeRoom()).toBe(false);
    expect(sessions.size).toBe(2);
    expect(closed).toEqual([]);
    await sessions.closeAll();
  });

  it("closes a session that never started a run after runlessIdleMs, one that did only after idleMs", async () => {
    let now = 0;
    const { sessions, add, closed } = store({ worker: { active: false, started: true } }, { maxSessions: 10, now: () => now });
    add("looker");
    add("worker");
    now = 299_999;
    await sessions.sweep();
    expect(closed).toEqual([]);
    now = 300_000;
    await sessions.sweep();
    expect(closed).toEqual([["looker", "idle"]]);
    now = 1_800_000;
    await sessions.sweep();
    expect(closed).toEqual([["looker", "idle"], ["worker", "idle"]]);
    await sessions.closeAll();
  });
});

describe("stepgate --http --max-sessions (built CLI)", () => {
  const greet = join(repoRoot, "test/fixtures/greet.stepfile.yaml");
  const initialize = (port: number) => rawRequest({ port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });

  /** A session as a well-behaved client opens it: initialize, then notifications/initialized. */
  async function openSession(port: number): Promise<string> {
    const opened = await initialize(port);
    expect(opened.status).toBe(200);
    const id = String(opened.headers["mcp-session-id"]);
    const headers = { ...MCP_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    expect((await rawRequest({ port, headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).status).toBe(202);
    return id;
  }

  it("lets a new client in past 1,000 idle sessions, closing the longest idle with its log line", { timeout: 240_000 }, async () => {
    const server = await startCliServer([greet]);
    try {
      // One local client opens the default --max-sessions (1000) and leaves them idle, 20 at a time.
      const ids: string[] = [];
      for (let i = 0; i < 1000; i += 20) ids.push(...(await Promise.all(Array.from({ length: 20 }, () => openSession(server.port)))));
      expect(new Set(ids).size).toBe(1000);
      const client = await connectClient(server.url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("greet");
      await client.close();
      // The evicted session is one of the first opened, and is gone.
      const line = /session (\S+) ended \(idle; closed to make room for a new session at --max-sessions\)/.exec(server.stderr());
      expect(line).not.toBeNull();
      expect(ids.slice(0, 20)).toContain(line![1]);
      const gone = await rawRequest({ port: server.port, headers: { ...MCP_HEADERS, "mcp-session-id": line![1]!, "mcp-protocol-version": "2025-11-25" }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
      expect(gone.status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it("answers 503 when every session holds a run, and lets a client in once one ends", { timeout: 90_000 }, async () => {
    const server = await startCliServer(["--max-sessions", "2", "--run-idle-ms", "600000", greet]);
    try {
      const holders = [await connectClient(server.url), await connectClient(server.url)];
      for (const client of holders) {
        const started = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
        expect(started.isError).toBeFalsy();
      }
      const refused = await initialize(server.port);
      expect(refused.status).toBe(503);
      // Sessions holding runs are sure to be closable only once idle for --run-idle-ms (600 s): not in 10 s.
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(500);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(600);
      expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringContaining("--max-sessions") }, id: null });
      // Ending one session (its run abandoned) frees a place.
      await httpTransportOf(holders[0]!).terminateSession();
      await holders[0]!.close();
      expect((await initialize(server.port)).status).toBe(200);
      await holders[1]!.close();
    } finally {
      await server.stop();
    }
  });

  it("closes a session that never started a run after --session-idle-ms", { timeout: 90_000 }, async () => {
    const server = await startCliServer(["--session-idle-ms", "1500", greet]);
    try {
      const id = await openSession(server.port);
      const deadline = Date.now() + 60_000;
      while (!server.stderr().includes(`session ${id} ended (idle)`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      expect(server.stderr()).toContain(`session ${id} ended (idle)`);
    } finally {
      await server.stop();
    }
  });
});
