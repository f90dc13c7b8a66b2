// The early reader itself (src/stdio/early.ts), on in-memory streams: which
// 2026-07-28 lines it answers before the MCP SDK exists, what it hands over
// for the SDK to read again, and what it leaves to the SDK. That the bytes
// are the SDK's is held through the built CLI (test/cli/stdio-early.test.ts).
import { PassThrough, type Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readEarly, type EarlyAnswers } from "../../src/stdio/early.js";

const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "early", version: "0" } };
const modern = (id: number, method: string, params: Record<string, unknown> = {}) => `${JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope } })}\n`;
const DISCOVER = '{"discover":true}';
const answers: EarlyAnswers = {
  initializeResult: () => '{"initialize":true}',
  toolsListResult: () => '{"tools":[]}',
  modernToolsListResult: () => '{"tools":[],"resultType":"complete"}',
};

/** Feeds `input` (stdin left open, as a client's is), lets the reader answer, and returns what it wrote, what it handed over and what the SDK would read first. */
async function early(input: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const reader = readEarly(stdin, stdout, DISCOVER);
  stdin.write(input);
  const handover = await reader.answer(answers);
  const written = String(stdout.read() ?? "");
  const { input: sdkInput, ...ids } = handover;
  return { written, ids, replayed: await available(sdkInput) };
}

/** What a readable holds now, without waiting for its end. */
async function available(stream: Readable): Promise<string> {
  await new Promise((resolve) => setImmediate(resolve));
  return String(stream.read() ?? "");
}

describe("the early reader on a 2026-07-28 opening", () => {
  it("answers a first tools/list carrying only the envelope, and hands it over to be read again", async () => {
    const { written, ids, replayed } = await early(modern(1, "tools/list"));
    expect(written).toBe('{"result":{"tools":[],"resultType":"complete"},"jsonrpc":"2.0","id":1}\n');
    expect(ids).toEqual({ answeredModernToolsList: 1 });
    expect(replayed).toBe(modern(1, "tools/list"));
  });

  it("answers server/discover, then the tools/list after it, and hands over both and what follows in order", async () => {
    const { written, ids, replayed } = await early(modern(1, "server/discover") + modern(2, "tools/list") + modern(3, "tools/call", { name: "x" }));
    expect(written).toBe('{"result":{"discover":true},"jsonrpc":"2.0","id":1}\n{"result":{"tools":[],"resultType":"complete"},"jsonrpc":"2.0","id":2}\n');
    expect(ids).toEqual({ answeredDiscover: 1, answeredModernToolsList: 2 });
    expect(replayed).toBe(modern(1, "server/discover") + modern(2, "tools/list") + modern(3, "tools/call", { name: "x" }));
  });

  it("leaves to the SDK a tools/list with params to honour, another revision, or after a 2025 initialize", async () => {
    for (const line of [modern(1, "tools/list", { cursor: "x" }), modern(1, "tools/list").replace("2026-07-28", "2099-01-01"), modern(1, "tools/list").replace('clientCapabilities":{}', 'clientCapabilities":{"odd":{}}')]) {
      const { written, ids, replayed } = await early(line);
      expect(written).toBe("");
      expect(ids).toEqual({});
      expect(replayed).toBe(line);
    }
    const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "early", version: "0" } } })}\n`;
    const { written, ids } = await early(initialize + modern(2, "tools/list"));
    expect(written).toBe('{"result":{"initialize":true},"jsonrpc":"2.0","id":1}\n');
    expect(ids).toEqual({ answeredInitialize: 1 });
  });

  it("after server/discover, hands over at the first line that is not a plain tools/list, answering nothing more", async () => {
    const { written, ids, replayed } = await early(modern(1, "server/discover") + modern(2, "resources/list") + modern(3, "tools/list"));
    expect(written).toBe('{"result":{"discover":true},"jsonrpc":"2.0","id":1}\n');
    expect(ids).toEqual({ answeredDiscover: 1 });
    expect(replayed).toBe(modern(1, "server/discover") + modern(2, "resources/list") + modern(3, "tools/list"));
  });

  it("answers a first server/discover before the stepfiles are loaded, and nothing else until then", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const reader = readEarly(stdin, stdout, DISCOVER);
    stdin.write(modern(1, "server/discover") + modern(2, "tools/list"));
    await new Promise((resolve) => setImmediate(resolve));
    // answer() not called yet: the stepfiles are still loading.
    expect(String(stdout.read() ?? "")).toBe('{"result":{"discover":true},"jsonrpc":"2.0","id":1}\n');
    const { input, ...ids } = await reader.answer(answers);
    expect(String(stdout.read() ?? "")).toBe('{"result":{"tools":[],"resultType":"complete"},"jsonrpc":"2.0","id":2}\n');
    expect(ids).toEqual({ answeredDiscover: 1, answeredModernToolsList: 2 });
    expect(await available(input)).toBe(modern(1, "server/discover") + modern(2, "tools/list"));
  });

  it("before the stepfiles are loaded, answers no initialize, no server/discover that is not the first line, and no discover it cannot vouch for", async () => {
    const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "early", version: "0" } } })}\n`;
    for (const input of [initialize, modern(1, "tools/list") + modern(2, "server/discover"), modern(1, "resources/list") + modern(2, "server/discover"), modern(1, "server/discover").replace("2026-07-28", "2099-01-01"), modern(1, "server/discover", { extra: true })]) {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const reader = readEarly(stdin, stdout, DISCOVER);
      stdin.write(input);
      await new Promise((resolve) => setImmediate(resolve));
      expect(String(stdout.read() ?? ""), input).toBe("");
      reader.stop();
    }
  });

  it("answers a first server/discover whose stdin then ends, and hands over the line and the end once loaded", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const reader = readEarly(stdin, stdout, DISCOVER);
    stdin.end(modern(1, "server/discover"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(String(stdout.read() ?? "")).toBe('{"result":{"discover":true},"jsonrpc":"2.0","id":1}\n');
    const { input, ...ids } = await reader.answer(answers);
    expect(ids).toEqual({ answeredDiscover: 1 });
    const read: string[] = [];
    input.on("data", (chunk) => read.push(String(chunk)));
    await new Promise((resolve) => input.once("end", resolve));
    expect(read.join("")).toBe(modern(1, "server/discover"));
  });
});
