// Issue 12, hostile clients over HTTP: bodies nested deeper than
// MAX_JSON_DEPTH are refused with 400 before the SDK sees them (and without
// recursion), --max-sessions answers 503 with a JSON-RPC error and
// Retry-After, and sessions whose client never followed its `initialize`
// are reaped within seconds instead of at the idle timeout.
import { afterEach, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../middleware/json-depth.js";
import { SessionStore } from "../../src/http/sessions.js";
import { newSession } from "../../src/session.js";
import { join } from "node:path";
import { repoRoot, startCliServer } from "./fixtures/cli-server.js";
import { connectClient, INITIALIZE, MCP_HEADERS, rawRequest, startHarness, type Harness } from "./fixtures/harness.js";

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
  it("answers initialize past --max-sessions with 503, a JSON-RPC error and Retry-After", async () => {
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
    expect(store.full()).toBe(true);
    now = 5_000;
    store.touch("talked");
    now = 10_000;
    await store.sweep();
    expect(closed).toEqual(["silent"]);
    expect(store.full()).toBe(false);
    // A confirmed session is only reaped at the idle timeout.
    now = 1_000_000;
    await store.sweep();
    expect(closed).toEqual(["silent"]);
    await store.closeAll();
  });
});

describe("stepgate --http --max-sessions (built CLI)", () => {
  it("refuses past the cap, then reaps the junk sessions within seconds and serves again", { timeout: 90_000 }, async () => {
    const server = await startCliServer(["--max-sessions", "2", join(repoRoot, "test/fixtures/greet.stepfile.yaml")]);
    try {
      const initialize = () => rawRequest({ port: server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
      expect((await initialize()).status).toBe(200);
      expect((await initialize()).status).toBe(200);
      const refused = await initialize();
      expect(refused.status).toBe(503);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      // Neither session sent notifications/initialized: both go after the grace, long before --run-idle-ms (30 min).
      const deadline = Date.now() + 60_000;
      let status = 503;
      while (status === 503 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        status = (await initialize()).status;
      }
      expect(status).toBe(200);
      expect(server.stderr()).toMatch(/session \S+ ended \(idle\)/);
    } finally {
      await server.stop();
    }
  });
});
