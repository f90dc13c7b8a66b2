// Issue 12, fuzzing the HTTP endpoint of the built CLI: random JSON-RPC
// bodies and headers, inside and outside a session. The server keeps
// answering, never with a 5xx, never with a stack trace.
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, startCliServer, type CliServer } from "../http/fixtures/cli-server.js";
import { INITIALIZE, MCP_HEADERS, rawRequest } from "../http/fixtures/harness.js";
import { FUZZ_RUNS, fuzzTimeout } from "./runs.js";

let server: CliServer;
let session = "";
beforeAll(async () => {
  server = await startCliServer(["--max-sessions", "50", join(repoRoot, "test/fixtures/greet.stepfile.yaml")]);
  const opened = await rawRequest({ port: server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  session = String(opened.headers["mcp-session-id"]);
  await rawRequest({ port: server.port, headers: { ...MCP_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
}, 60_000);
afterAll(async () => server?.stop());

const METHODS = ["initialize", "tools/list", "tools/call", "ping", "notifications/initialized", "resources/list", "prompts/get", "completion/complete", "logging/setLevel", "", "x"];
const TOOLS = ["greet", "stepgate_call", "stepgate_submit", "stepgate_validate", "stepgate_try", "stepgate_guide", "stepgate_examples", "stepgate_outline", "nope"];

const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 12 })),
    params: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ name: fc.constantFrom(...TOOLS), arguments: fc.dictionary(fc.constantFrom("run", "output", "operation", "name", "text", "draft", "arguments"), fc.jsonValue({ maxDepth: 3 })) }),
      fc.record({ protocolVersion: fc.constantFrom("2025-11-25", "2026-07-28", "1999-01-01", ""), capabilities: fc.jsonValue({ maxDepth: 2 }), clientInfo: fc.jsonValue({ maxDepth: 1 }) }),
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  message.map((m) => JSON.stringify(m)),
  fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
  fc.string({ maxLength: 200 }),
);
const headers = fc.record(
  {
    "content-type": fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""),
    accept: fc.constantFrom("application/json, text/event-stream", "application/json", "text/event-stream", "*/*", ""),
    "mcp-protocol-version": fc.constantFrom("2025-11-25", "2026-07-28", "2024-11-05", "garbage"),
    "mcp-session-id": fc.oneof(fc.constant("<session>"), fc.string({ maxLength: 20 }).filter((s) => /^[\x21-\x7e]*$/.test(s))),
  },
  { requiredKeys: [] },
);

describe("the HTTP endpoint under random requests", () => {
  it("never answers 5xx or with a stack trace, and keeps serving", { timeout: fuzzTimeout(500) }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("POST", "POST", "POST", "GET", "DELETE"), headers, body, async (method, given, text) => {
        const sent = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== "").map(([k, v]) => [k, v === "<session>" ? session : v]));
        const answer = rawRequest({ port: server.port, method, headers: sent, ...(method === "POST" ? { body: text } : {}) });
        // A GET that opened an event stream (or an SSE reply kept open) never ends: its 200 headers were the answer.
        const response = await Promise.race([answer, new Promise<{ status: number; body: string }>((resolve) => setTimeout(() => resolve({ status: 200, body: "(stream left open)" }), 5_000))]);
        expect(response.status, `${method} ${JSON.stringify(sent)} ${text.slice(0, 200)}`).toBeLessThan(500);
        expect(response.body).not.toMatch(/\n\s+at [\w.<]+ \(|node:internal/);
      }),
      { numRuns: FUZZ_RUNS * 8 },
    );
    const again = await rawRequest({ port: server.port, headers: MCP_HEADERS, body: JSON.stringify({ ...INITIALIZE, id: 99 }) });
    expect([200, 503]).toContain(again.status);
    expect(server.stderr()).not.toMatch(/\n\s+at [\w.<]+ \(/);
  });
});
