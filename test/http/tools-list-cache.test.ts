// tools/list is answered from kept bytes inside the Hono chain, after every
// guard (src/http/tools-list-cache.ts): in an initialized 2025-11-25 session
// and over 2026-07-28. Two servers over the same real factory: one with the
// cache, one without (the factory offered without toolsListResult). Every
// request is sent to both over a raw socket and the bytes on the wire must be
// the same, apart from the Date header and the session id each server
// minted. Each server's tools/list handler counts the requests the SDK
// answered, which proves which ones the cache did.
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../../src/http/server.js";
import { createServerFactory } from "../../src/mcp/server.js";
import { ServedStepfiles } from "../../src/mcp/served.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import { DEFAULT_LIMITS } from "../../src/limits.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import type { McpServerFactory } from "../../src/mcp/factory-types.js";
import { repoRoot } from "./fixtures/cli-server.js";

const fixtures = join(repoRoot, "test/fixtures");
const sources = [join(fixtures, "greet.stepfile.yaml"), join(fixtures, "approve.stepfile.yaml")];

interface Side {
  server: HttpServer;
  session: string;
}

let stepfiles: ServedStepfiles;
let fast: Side;
let sdk: Side;
let sdkMessages = 0;
const MAX_BODY = 16_384;
const oversized = (body: string) => body.replace(/^\{/, `{"pad":"${"x".repeat(MAX_BODY)}",`);

/** One HTTP/1.1 exchange on a fresh connection; the response exactly as it came over the wire. */
function exchange(port: number, head: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      if (split < 0) return;
      const headers = text.slice(0, split);
      const rest = text.slice(split + 4);
      const length = /\r\ncontent-length: (\d+)/i.exec(headers);
      const done = length ? Buffer.byteLength(rest) >= Number(length[1]) : /\r\ntransfer-encoding: chunked/i.test(headers) ? rest.endsWith("0\r\n\r\n") : true;
      if (done) {
        socket.end();
        resolve(text);
      }
    });
    socket.on("error", reject);
    socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

function post(port: number, body: string, headers: Record<string, string> = {}): Promise<string> {
  const all: Record<string, string> = { Host: `127.0.0.1:${port}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers };
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return exchange(port, `POST /mcp HTTP/1.1\r\n${lines}`, body);
}

async function open(server: HttpServer): Promise<Side> {
  const init = await post(server.port, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }));
  const session = /\r\nmcp-session-id: ([^\r]+)/i.exec(init)![1]!;
  await post(server.port, '{"jsonrpc":"2.0","method":"notifications/initialized"}', { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" });
  return { server, session };
}

/** The same request to both servers, each in its own session unless `headers` names one. */
async function both(body: string, headers: Record<string, string> = {}) {
  const send = (side: Side) => {
    const h: Record<string, string> = { "Mcp-Session-Id": side.session, "MCP-Protocol-Version": "2025-11-25", ...headers };
    // An empty value leaves the header out.
    for (const [k, v] of Object.entries(h)) {
      if (v === "") delete h[k];
      else h[k] = v.replaceAll("{port}", String(side.server.port));
    }
    return post(side.server.port, body, h);
  };
  const before = sdkMessages;
  const a = await send(fast);
  // Answered without the SDK, and not refused by a guard.
  const viaFast = sdkMessages === before && a.startsWith("HTTP/1.1 200 ");
  const b = await send(sdk);
  const normal = (text: string, side: Side) => text.replace(/\r\nDate: [^\r]+/, "\r\nDate: -").replaceAll(side.session, "<session>");
  return { fast: normal(a, fast), sdk: normal(b, sdk), viaFast };
}

beforeAll(async () => {
  stepfiles = new ServedStepfiles(await Promise.all(sources.map(async (source) => ({ source, loaded: await loadStepfileFile(source) }))));
  const registry = new RunRegistry({ limits: DEFAULT_LIMITS, ledger: chainedLedgers(memorySinks()), newRunId: () => "r", openToolbox: () => Promise.reject(new Error("no toolbox")) }, 60_000);
  const factory = createServerFactory({ stepfiles, registry, version: "0.0.0", approvalTimeoutMs: 60_000, authoring: { catalog: () => [], grants: { credentials: [], settings: [] }, env: {}, requests: { userAgent: "t", timeoutMs: 1000, maxBytes: 1000 } } });
  // Every message that reaches an SDK server of the cached side is counted as its transport hands it over.
  const counted: McpServerFactory = {
    create: (s) => {
      const server = factory.create(s);
      const connect = server.connect.bind(server);
      server.connect = async (transport) => {
        await connect(transport);
        const deliver = transport.onmessage;
        transport.onmessage = (message, extra) => {
          sdkMessages += 1;
          deliver?.(message, extra);
        };
      };
      return server;
    },
    endSession: (s) => factory.endSession(s),
    toolsListResult: () => factory.toolsListResult!(),
  };
  const plain: McpServerFactory = { create: (s) => factory.create(s), endSession: (s) => factory.endSession(s) };
  // A small body limit, so a tools/list over it is quick to send.
  fast = await open(await startHttpServer({ port: 0, factory: counted, idleMs: 60_000, maxBodyBytes: MAX_BODY }));
  sdk = await open(await startHttpServer({ port: 0, factory: plain, idleMs: 60_000, maxBodyBytes: MAX_BODY }));
});

afterAll(async () => {
  await fast?.server.close();
  await sdk?.server.close();
});

describe("tools/list from kept bytes in a 2025-11-25 session", () => {
  it.each([
    ["a numeric id", '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'],
    ["no params", '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'],
    ["a string id with escapes and non-ASCII", '{"method":"tools/list","id":"a\\"b\\u2028ü","jsonrpc":"2.0"}'],
    ["a negative id", '{"jsonrpc":"2.0","id":-7,"method":"tools/list","params":{}}'],
    ["id 0 and spaces", ' { "jsonrpc" : "2.0" , "id" : 0 , "method" : "tools/list" } '],
  ])("answers %s with the SDK's bytes", async (_, body) => {
    const r = await both(body);
    expect(r.viaFast).toBe(true);
    expect(r.fast).toBe(r.sdk);
    expect(r.fast).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/event-stream\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\nevent: message\ndata: \{"result":\{"tools":\[\{"name":"greet"/);
  });

  it.each([
    ["a cursor", '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"x"}}', {}],
    ["_meta", '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"progressToken":1}}}', {}],
    ["an extra member", '{"jsonrpc":"2.0","id":4,"method":"tools/list","x":1}', {}],
    ["a fractional id", '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', {}],
    ["a null id", '{"jsonrpc":"2.0","id":null,"method":"tools/list"}', {}],
    ["a batch", '[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]', {}],
    ["another method", '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}}', {}],
    ["invalid JSON", '{"jsonrpc":"2.0","id":4,"method":"tools/list"', {}],
    ["a body nested too deep", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"x":${"[".repeat(70)}${"]".repeat(70)}}}`, {}],
    ["a body over the limit", oversized('{"jsonrpc":"2.0","id":4,"method":"tools/list"}'), {}],
    ["a foreign Host", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { Host: "evil.example:{port}" }],
    ["a foreign Origin", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { Origin: "http://evil.example" }],
    ["Accept without event streams", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { Accept: "application/json" }],
    ["a text/plain body", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { "Content-Type": "text/plain" }],
    ["an unknown session", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { "Mcp-Session-Id": "nope" }],
    ["an unsupported protocol version", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { "MCP-Protocol-Version": "1999-01-01" }],
    ["no protocol version header", '{"jsonrpc":"2.0","id":4,"method":"tools/list"}', { "MCP-Protocol-Version": "" }],
  ])("leaves %s to the normal path, which answers as it does without the fast path", async (_, body, headers: Record<string, string>) => {
    const r = await both(body, headers);
    expect(r.viaFast).toBe(false);
    expect(r.fast).toBe(r.sdk);
  });

  it("answers a request from a loopback Origin, which the Origin guard lets through", async () => {
    const r = await both('{"jsonrpc":"2.0","id":5,"method":"tools/list"}', { Origin: "http://localhost:9", Host: "LOCALHOST:{port}" });
    expect(r.viaFast).toBe(true);
    expect(r.fast).toBe(r.sdk);
  });
});

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** A 2026-07-28 request: no session, the revision and method in headers. */
const MODERN = { "Mcp-Session-Id": "", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" };
const list2026 = (id: unknown, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: ENVELOPE, ...params }, ...extra });

describe("tools/list from kept bytes over 2026-07-28", () => {
  it("sends the first one of a catalog version to the SDK and keeps its answer", async () => {
    const r = await both(list2026(1), MODERN);
    expect(r.viaFast).toBe(false);
    expect(r.fast).toBe(r.sdk);
    expect(r.fast).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: application\/json\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\n\{"result":\{"tools":\[\{"name":"greet"/);
  });

  it.each([
    ["a numeric id", list2026(2)],
    ["a string id with escapes and non-ASCII", list2026('a"b\u2028ü')],
    ["a negative id", list2026(-7)],
    ["id 0", list2026(0)],
    ["another client's name and capabilities", JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { ...ENVELOPE, "io.modelcontextprotocol/clientInfo": { name: "other", version: "9" }, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } } })],
  ])("answers %s with the SDK's bytes", async (_, body) => {
    const r = await both(body, MODERN);
    expect(r.viaFast).toBe(true);
    expect(r.fast).toBe(r.sdk);
  });

  it.each([
    ["a cursor", list2026(4, { cursor: "x" }), {}],
    ["another _meta key", list2026(4, { _meta: { ...ENVELOPE, progressToken: 1 } }), {}],
    ["an extra member", list2026(4, {}, { x: 1 }), {}],
    ["a fractional id", list2026(1.5), {}],
    ["no Mcp-Method header", list2026(4), { "Mcp-Method": "" }],
    ["a different Mcp-Method header", list2026(4), { "Mcp-Method": "tools/call" }],
    ["no MCP-Protocol-Version header", list2026(4), { "MCP-Protocol-Version": "" }],
    ["a header naming another revision", list2026(4), { "MCP-Protocol-Version": "2025-11-25" }],
    ["an envelope without capabilities", list2026(4, { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" } } }), {}],
    ["an unknown revision", list2026(4, { _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } }), { "MCP-Protocol-Version": "2099-01-01" }],
    ["a foreign Host", list2026(4), { Host: "evil.example:{port}" }],
    ["a foreign Origin", list2026(4), { Origin: "http://evil.example" }],
    ["a text/plain body", list2026(4), { "Content-Type": "text/plain" }],
    ["a body nested too deep", list2026(4, { x: JSON.parse(`${"[".repeat(70)}${"]".repeat(70)}`) as unknown }), {}],
    ["a body over the limit", oversized(list2026(4)), {}],
  ])("leaves %s to the normal path, which answers as it does without the cache", async (_, body, headers: Record<string, string>) => {
    const r = await both(body, { ...MODERN, ...headers });
    expect(r.viaFast).toBe(false);
    expect(r.fast).toBe(r.sdk);
  });
});

describe("after a --watch reload", () => {
  it("serves the new list in both eras, still with the SDK's bytes", async () => {
    const reloaded = await loadStepfileFile(join(fixtures, "approve-mechanical.stepfile.yaml"));
    expect(stepfiles.replace(sources[1]!, reloaded)).toBeUndefined();
    const legacy = await both('{"jsonrpc":"2.0","id":9,"method":"tools/list"}');
    expect(legacy.viaFast).toBe(true);
    expect(legacy.fast).toBe(legacy.sdk);
    expect(legacy.fast).toContain(`"name":"${reloaded.doc.id}"`);
    // The kept 2026 answer was of the old catalog: the first request goes to the SDK again, the next is kept bytes.
    const first = await both(list2026(10), MODERN);
    expect(first.viaFast).toBe(false);
    const second = await both(list2026(11), MODERN);
    expect(second.viaFast).toBe(true);
    expect(second.fast).toBe(second.sdk);
    expect(second.fast).toContain(`"name":"${reloaded.doc.id}"`);
  });
});
