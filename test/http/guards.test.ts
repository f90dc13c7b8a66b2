// The guards of HTTP mode (spec: HTTP mode): DNS-rebinding Host and Origin
// probes, the 4 MiB body cap for every framing and content type, and the JSON
// check, each answered with a JSON-RPC shaped error before any MCP handling.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackHost } from "../../middleware/loopback-host.js";
import { isAllowedOrigin } from "../../middleware/loopback-origin.js";
import { INITIALIZE, MCP_HEADERS, rawRequest, startHarness, type Harness, type RawResponse } from "./fixtures/harness.js";

const FOUR_MIB = 4 * 1024 * 1024;
let h: Harness;
let port: number;

beforeAll(async () => {
  h = await startHarness();
  port = h.server.port;
});
afterAll(() => h.server.close());

function expectJsonRpcError(response: RawResponse, status: number): void {
  expect(response.status).toBe(status);
  const body = JSON.parse(response.body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toBeNull();
  expect(typeof body.error.code).toBe("number");
  expect(typeof body.error.message).toBe("string");
}

function initialize(headers: Record<string, string> = {}, setHost = true): Promise<RawResponse> {
  return rawRequest({ port, headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INITIALIZE), setHost });
}

// A JSON document of exactly `size` bytes: an initialize request padded in a string field.
function jsonOfSize(size: number): string {
  const shell = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, clientInfo: { name: "", version: "0" } } });
  return shell.replace('"name":""', `"name":"${"x".repeat(size - shell.length)}"`);
}

describe("Host guard", () => {
  it.each([
    ["evil.example"],
    ["127.0.0.1.evil.example"],
    ["localhost.evil.example"],
    ["evil.example:PORT"],
    ["127.0.0.1.evil.example:PORT"],
    ["localhost.evil.example:PORT"],
    ["localhost:1"],
    ["127.0.0.1"],
    ["127.0.0.2:PORT"],
    ["[::2]:PORT"],
  ])("refuses Host %s with 403", async (host) => {
    expectJsonRpcError(await initialize({ host: host.replace("PORT", String(port)) }), 403);
  });

  it("refuses a request without Host", async () => {
    expectJsonRpcError(await initialize({}, false), 403);
  });

  it("refuses Host [::1].evil.example, which cannot even form a URL, with a JSON-RPC 403", async () => {
    const response = await initialize({ host: `[::1].evil.example:${port}` });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
  });

  it.each([["127.0.0.1:PORT"], ["localhost:PORT"], ["LOCALHOST:PORT"], ["[::1]:PORT"]])(
    "accepts Host %s",
    async (host) => {
      const response = await initialize({ host: host.replace("PORT", String(port)) });
      expect(response.status).toBe(200);
      expect(response.headers["mcp-session-id"]).toBeTypeOf("string");
    },
  );

  it("compares the port too", () => {
    expect(isLoopbackHost("localhost:8787", 8787)).toBe(true);
    expect(isLoopbackHost("localhost:8788", 8787)).toBe(false);
    expect(isLoopbackHost("localhost", 80)).toBe(true);
    expect(isLoopbackHost(undefined, 8787)).toBe(false);
    expect(isLoopbackHost("[::1]:8787", 8787)).toBe(true);
    expect(isLoopbackHost("[::ffff:127.0.0.1]:8787", 8787)).toBe(false);
  });
});

describe("Origin guard", () => {
  it.each([
    ["http://evil.example"],
    ["http://[::1].evil.example"],
    ["http://127.0.0.1.evil.example"],
    ["http://localhost.evil.example:8080"],
    ["http://localhost@evil.example"],
    ["null"],
    ["file://"],
    ["ftp://localhost"],
    ["not a url"],
  ])("refuses Origin %s with 403", async (origin) => {
    expectJsonRpcError(await initialize({ origin }), 403);
  });

  it.each([["http://localhost:PORT"], ["http://127.0.0.1:5173"], ["https://[::1]:PORT"], ["http://LOCALHOST"]])(
    "accepts Origin %s",
    async (origin) => {
      expect((await initialize({ origin: origin.replace("PORT", String(port)) })).status).toBe(200);
    },
  );

  it("accepts a request without Origin", async () => {
    expect((await initialize()).status).toBe(200);
  });

  it("decides from the parsed host name", () => {
    const loopback = new Set(["localhost", "127.0.0.1", "[::1]"]);
    expect(isAllowedOrigin("http://[::1]:3000", loopback)).toBe(true);
    expect(isAllowedOrigin("http://[::1].evil.example", loopback)).toBe(false);
    expect(isAllowedOrigin("null", loopback)).toBe(false);
  });
});

describe("body limit", () => {
  it("accepts a JSON body of exactly 4 MiB", async () => {
    const response = await rawRequest({ port, headers: MCP_HEADERS, body: jsonOfSize(FOUR_MIB) });
    expect(response.status).toBe(200);
  });

  it("refuses 4 MiB + 1 byte of JSON with 413", async () => {
    expectJsonRpcError(await rawRequest({ port, headers: MCP_HEADERS, body: jsonOfSize(FOUR_MIB + 1) }), 413);
  });

  it("refuses 4 MiB + 1 byte of text/plain with 413", async () => {
    const body = "x".repeat(FOUR_MIB + 1);
    expectJsonRpcError(await rawRequest({ port, headers: { "content-type": "text/plain" }, body }), 413);
  });

  it("refuses 4 MiB + 1 byte sent chunked without Content-Length with 413", async () => {
    const json = jsonOfSize(FOUR_MIB + 1);
    const chunks = [];
    for (let at = 0; at < json.length; at += 64 * 1024) chunks.push(Buffer.from(json.slice(at, at + 64 * 1024)));
    const response = await rawRequest({ port, headers: MCP_HEADERS, body: chunks });
    expectJsonRpcError(response, 413);
  });

  it("refuses a chunked text/plain body over the limit with 413", async () => {
    const chunks = Array.from({ length: 65 }, () => Buffer.alloc(64 * 1024 + 1, 0x61));
    expectJsonRpcError(await rawRequest({ port, headers: { "content-type": "text/plain" }, body: chunks }), 413);
  });
});

describe("JSON check", () => {
  it.each([
    ["text/plain", "hello"],
    ["text/plain", JSON.stringify(INITIALIZE)],
    ["application/x-www-form-urlencoded", "a=b"],
    ["application/json", "{not json"],
    ["application/json", ""],
  ])("refuses Content-Type %s body %j with 400", async (contentType, body) => {
    const response = await rawRequest({ port, headers: { ...MCP_HEADERS, "content-type": contentType }, body });
    expectJsonRpcError(response, 400);
  });

  it("refuses a POST without Content-Type with 400", async () => {
    const response = await rawRequest({ port, headers: { accept: MCP_HEADERS.accept }, body: JSON.stringify(INITIALIZE) });
    expectJsonRpcError(response, 400);
  });

  it("accepts application/json with a charset", async () => {
    const headers = { ...MCP_HEADERS, "content-type": "application/json; charset=utf-8" };
    expect((await rawRequest({ port, headers, body: JSON.stringify(INITIALIZE) })).status).toBe(200);
  });
});

describe("refused requests never reach MCP handling", () => {
  it("creates no server and calls no handler for any refused request", async () => {
    const createdBefore = h.factory.created.length;
    const handledBefore = h.factory.handled;
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const refused = await Promise.all([
      initialize({ host: "evil.example" }),
      initialize({ host: `localhost:${port + 1}` }),
      initialize({ origin: "http://evil.example" }),
      rawRequest({ port, headers: MCP_HEADERS, body: jsonOfSize(FOUR_MIB + 1) }),
      rawRequest({ port, headers: { "content-type": "text/plain" }, body: list }),
      rawRequest({ port, headers: MCP_HEADERS, body: "{" }),
    ]);
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 413, 400, 400]);
    expect(h.factory.created.length).toBe(createdBefore);
    expect(h.factory.handled).toBe(handledBefore);
    expect(h.log).toEqual(expect.arrayContaining(["403 POST /mcp", "413 POST /mcp", "400 POST /mcp"]));
  });

  it("refuses a forged Host even with a valid session id, without reaching its server", async () => {
    const opened = await initialize();
    const session = String(opened.headers["mcp-session-id"]);
    const handledBefore = h.factory.handled;
    const response = await rawRequest({
      port,
      headers: { ...MCP_HEADERS, host: "evil.example", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expectJsonRpcError(response, 403);
    expect(h.factory.handled).toBe(handledBefore);
  });
});
