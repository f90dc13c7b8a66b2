// tools/list in an initialized 2025-11-25 session is answered from cached
// bytes before Hono and the SDK (src/http/fast-tools-list.ts). Two servers
// over the same real factory: one with the fast path, one without (the
// factory offered without toolsListResult). Every request is sent to both
// over a raw socket and the bytes on the wire must be the same, apart from
// the Date header and the session id each server minted. A counter on
// toolsListResult proves which requests the fast path answered.
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
let fastAnswers = 0;

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
  const before = fastAnswers;
  const a = await send(fast);
  const viaFast = fastAnswers > before;
  const b = await send(sdk);
  const normal = (text: string, side: Side) => text.replace(/\r\nDate: [^\r]+/, "\r\nDate: -").replaceAll(side.session, "<session>");
  return { fast: normal(a, fast), sdk: normal(b, sdk), viaFast };
}

beforeAll(async () => {
  stepfiles = new ServedStepfiles(await Promise.all(sources.map(async (source) => ({ source, loaded: await loadStepfileFile(source) }))));
  const registry = new RunRegistry({ limits: DEFAULT_LIMITS, ledger: chainedLedgers(memorySinks()), newRunId: () => "r", openToolbox: () => Promise.reject(new Error("no toolbox")) }, 60_000);
  const factory = createServerFactory({ stepfiles, registry, version: "0.0.0", approvalTimeoutMs: 60_000, authoring: { catalog: () => [], grants: { credentials: [], settings: [] }, env: {}, requests: { userAgent: "t", timeoutMs: 1000, maxBytes: 1000 } } });
  const counted: McpServerFactory = {
    create: (s) => factory.create(s),
    endSession: (s) => factory.endSession(s),
    toolsListResult: () => {
      fastAnswers += 1;
      return factory.toolsListResult!();
    },
  };
  const plain: McpServerFactory = { create: (s) => factory.create(s), endSession: (s) => factory.endSession(s) };
  fast = await open(await startHttpServer({ port: 0, factory: counted, idleMs: 60_000 }));
  sdk = await open(await startHttpServer({ port: 0, factory: plain, idleMs: 60_000 }));
});

afterAll(async () => {
  await fast?.server.close();
  await sdk?.server.close();
});

describe("the tools/list fast path", () => {
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

  it("serves the new list after a --watch reload, still with the SDK's bytes", async () => {
    const reloaded = await loadStepfileFile(join(fixtures, "approve-mechanical.stepfile.yaml"));
    expect(stepfiles.replace(sources[1]!, reloaded)).toBeUndefined();
    const r = await both('{"jsonrpc":"2.0","id":9,"method":"tools/list"}');
    expect(r.viaFast).toBe(true);
    expect(r.fast).toBe(r.sdk);
    expect(r.fast).toContain(`"name":"${reloaded.doc.id}"`);
  });
});
