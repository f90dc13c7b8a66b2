// Issue 22: a request whose connection is gone before its answer is logged
// as what happened (the client closed it, or it timed out), not as a 500
// that was never sent; the server keeps serving. In process, with the log
// captured, over raw sockets that stop where a real client would.
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../../src/http/server.js";
import { connectClient, INITIALIZE, MCP_HEADERS, rawRequest } from "./fixtures/harness.js";
import { testFactory } from "./fixtures/test-factory.js";

const servers: HttpServer[] = [];
afterEach(async () => void (await Promise.all(servers.splice(0).map((s) => s.close()))));

async function start(options: { requestTimeoutMs?: number } = {}) {
  const log: string[] = [];
  const server = await startHttpServer({ port: 0, factory: testFactory(), idleMs: 60_000, log: (line) => log.push(line), ...options });
  servers.push(server);
  return { server, log };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

const head = (port: number, length: number, extra = "") =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${extra}Content-Length: ${length}\r\n\r\n`;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a request whose connection goes away before the answer", () => {
  it("closed by the client mid-body: logged as closed, not as a 500, and the server serves on", async () => {
    const { server, log } = await start();
    const socket = await open(server.port);
    socket.write(`${head(server.port, 1000)}{"jsonrpc":"2.0",`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await until(() => log.some((line) => line.includes("nothing was sent")), "the log line");
    expect(log).toContain("POST /mcp: the client closed the connection before the answer; nothing was sent");
    expect(log.filter((line) => /^500 |error:/.test(line))).toEqual([]);
    expect((await rawRequest({ port: server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) })).status).toBe(200);
  });

  it("closed by the client while a 2026-07-28 call is answered: logged as closed, not as the SDK's 499", async () => {
    const { server, log } = await start();
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sleep", arguments: { ms: 3000 }, _meta: meta } });
    const socket = await open(server.port);
    socket.write(`${head(server.port, Buffer.byteLength(body), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: sleep\r\n")}${body}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    await until(() => log.some((line) => line.includes("nothing was sent")), "the log line");
    expect(log).toContain("POST /mcp: the client closed the connection before the answer; nothing was sent");
    expect(log.filter((line) => /^(499|500) /.test(line))).toEqual([]);
  });

  it("timed out by the server: answered 408 JSON-RPC shaped, logged as timed out", async () => {
    const { server, log } = await start({ requestTimeoutMs: 500 });
    const socket = await open(server.port);
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      socket.on("close", () => resolve(text));
    });
    socket.write(`${head(server.port, 1000)}{"jsonrpc":"2.0",`);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    await until(() => log.some((line) => line.includes("nothing was sent")), "the log line");
    expect(log).toContain("POST /mcp: timed out (the request did not arrive whole within 500 ms) before the answer; nothing was sent");
    expect(log.filter((line) => /^500 |error:/.test(line))).toEqual([]);
    const client = await connectClient(server.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe("a request node cannot read", () => {
  it("is answered 400 with a JSON-RPC error, like every other refusal", async () => {
    const { server } = await start();
    const socket = await open(server.port);
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      socket.on("close", () => resolve(text));
    });
    socket.write("NOT A REQUEST\r\n\r\n");
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: the request cannot be read" }, id: null });
  });
});
