// The curl smoke test users run against `stepgate --http`: initialize, the
// initialized notification and tools/list with the session header, using the
// real curl binary so nothing in Node shapes the requests.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasCurl } from "./fixtures/curl.js";
import { INITIALIZE, messagesOf, startHarness, type Harness } from "./fixtures/harness.js";


let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.server.close());

interface CurlResult {
  status: number;
  headers: Map<string, string>;
  body: string;
}

function runCurl(args: string[], stdin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("curl", ["-sS", "-i", "--max-time", "10", ...args, h.server.url]);
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`curl exit ${code}`))));
    // curl may stop reading once the server has refused the body.
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
  });
}

async function curl(args: string[], stdin?: string): Promise<CurlResult> {
  const stdout = await runCurl(args, stdin);
  const [head = "", ...rest] = stdout.split("\r\n\r\n");
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = new Map(
    headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") };
}

const POST = ["-X", "POST", "-H", "content-type: application/json", "-H", "accept: application/json, text/event-stream"];

describe.skipIf(!hasCurl)("curl smoke test", () => {
  it("initialize, notifications/initialized, tools/list with the session header", async () => {
    const init = await curl([...POST, "-d", JSON.stringify(INITIALIZE)]);
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id");
    expect(session).toBeTypeOf("string");
    expect(messagesOf(init.body)[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });

    const sessionHeaders = ["-H", `mcp-session-id: ${session}`, "-H", "mcp-protocol-version: 2025-11-25"];
    const initialized = await curl([...POST, ...sessionHeaders, "-d", '{"jsonrpc":"2.0","method":"notifications/initialized"}']);
    expect(initialized.status).toBe(202);

    const list = await curl([...POST, ...sessionHeaders, "-d", '{"jsonrpc":"2.0","id":2,"method":"tools/list"}']);
    expect(list.status).toBe(200);
    const [reply] = messagesOf(list.body) as { result: { tools: { name: string }[] } }[];
    expect(reply?.result.tools.map((tool) => tool.name)).toEqual(["echo", "counter", "sleep"]);

    const deleted = await curl(["-X", "DELETE", ...sessionHeaders]);
    expect(deleted.status).toBe(200);
    expect(h.factory.ended.map((s) => s.id)).toContain(session);
  });

  it("tools/list over 2026-07-28: no session, the envelope in _meta", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "curl", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } });
    const headers = ["-H", "mcp-protocol-version: 2026-07-28", "-H", "mcp-method: tools/list"];
    const list = await curl([...POST, ...headers, "-d", body]);
    expect(list.status).toBe(200);
    expect(list.headers.has("mcp-session-id")).toBe(false);
    const [reply] = messagesOf(list.body) as { result: { tools: { name: string }[] } }[];
    expect(reply?.result.tools.map((tool) => tool.name)).toEqual(["echo", "counter", "sleep"]);
  });

  it("is refused with a forged Host, a foreign Origin, plain text and an oversized body", async () => {
    const body = ["-d", JSON.stringify(INITIALIZE)];
    expect((await curl([...POST, "-H", "host: evil.example", ...body])).status).toBe(403);
    expect((await curl([...POST, "-H", "origin: http://evil.example", ...body])).status).toBe(403);
    expect((await curl(["-X", "POST", "-H", "content-type: text/plain", ...body])).status).toBe(400);
    const big = await curl([...POST, "-H", "transfer-encoding: chunked", "-H", "expect:", "--data-binary", "@-"], "x".repeat(4 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
  });
});
