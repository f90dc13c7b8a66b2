// How a remote MCP tool's failed call reaches the client, through the built
// CLI: a tools/call the server answers with an HTTP error, or whose
// connection breaks, is ToolCallFailed (an error result, the run goes on),
// while Stepgate's own errors under the SDK's still end the run; and an
// operation declared `effect: read` is retried after a 5xx or network error
// as the seed says, though every MCP message is a POST.
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { startMcpFixture } from "../support/mcp-fixture.js";
import { cleanUp, mcpMethod, oneStep, proxyTo, startRun, structured, text } from "./cli-run.js";

afterEach(cleanUp);

type Intercept = (req: IncomingMessage, body: string, res: ServerResponse) => boolean;

/** A run whose one step may call `lookup` on an MCP server behind a proxy that can fail any request. */
async function mcpRun(intercept: Intercept, options: { effect?: "read"; args?: string[] } = {}) {
  const mcp = await startMcpFixture({ token: "mcp-token", tools: [{ name: "lookup", inputSchema: { type: "object" }, text: "Acme: Leeds" }] });
  const proxy = await proxyTo(mcp.origin, intercept);
  const stepfile = oneStep(
    "mcp-calls",
    {
      credentials: { suppliers: { kind: "bearer", hosts: [proxy.host], description: "Looks up suppliers." } },
      tools: { suppliers: { mcp: { url: `${proxy.origin}/mcp` }, credential: "suppliers", exposes: [options.effect ? { name: "lookup", effect: options.effect } : "lookup"] } },
    },
    { tools: ["lookup"] },
  );
  const run = await startRun(stepfile, {}, { env: { SUPPLIERS_API_KEY: "mcp-token" }, ...(options.args ? { args: options.args } : {}) });
  const calls = () => proxy.received.filter((r) => mcpMethod(r.body) === "tools/call").length;
  return { run, calls, close: () => mcp.close() };
}

/** Answers the first tools/call with `fail`, then lets every request through. */
function failFirstCall(fail: (res: ServerResponse) => void): Intercept {
  let failed = false;
  return (_req, body, res) => {
    if (failed || mcpMethod(body) !== "tools/call") return false;
    failed = true;
    fail(res);
    return true;
  };
}

const http500 = (res: ServerResponse) => res.writeHead(500, { "content-type": "text/plain" }).end("boom");
const http503 = (res: ServerResponse) => res.writeHead(503, { "content-type": "text/plain", "retry-after": "0" }).end("busy");
const brokenConnection = (res: ServerResponse) => res.socket?.destroy();

describe("a failed MCP tool call", () => {
  it("answered HTTP 500 is ToolCallFailed with the status and body: an error result, sent once, and the run goes on", async () => {
    const { run, calls, close } = await mcpRun(failFirstCall(http500));
    const failed = await run.call("lookup", { query: "Acme" });
    expect(failed.isError).toBe(true);
    expect(structured(failed).state).toBe("running");
    expect(text(failed)).toContain("lookup failed: HTTP 500: boom");
    // A POST that failed may have taken effect: never sent twice.
    expect(calls()).toBe(1);
    const again = await run.call("lookup", { query: "Acme" });
    expect(again.isError).toBeFalsy();
    expect(text(again)).toContain("Acme: Leeds");
    expect(structured(await run.submit({ found: true })).state).toBe("finished");
    const { ledger } = await run.finish();
    await close();
    expect(ledger.some((r) => r.type === "run_failed")).toBe(false);
    expect(ledger.filter((r) => r.type === "retry")).toEqual([]);
    // The failed call has its record too, with the status and error type, and no response hash.
    expect(ledger.filter((r) => r.type === "tool_call")).toMatchObject([
      { operation: "lookup", tool: "suppliers", host: expect.stringMatching(/^127\.0\.0\.1:\d+$/), credential: "suppliers", status: 500, response_hash: null, response_length: null, error: "ToolCallFailed" },
      { operation: "lookup", status: null, response_hash: expect.stringMatching(/^sha256:/) },
    ]);
    expect(ledger.filter((r) => r.type === "tool_call")[1]).not.toHaveProperty("error");
  });

  it("whose connection breaks is ToolCallFailed: an error result, and the run goes on", async () => {
    const { run, calls, close } = await mcpRun(failFirstCall(brokenConnection));
    const failed = await run.call("lookup", { query: "Acme" });
    expect(failed.isError).toBe(true);
    expect(structured(failed).state).toBe("running");
    expect(text(failed)).toMatch(/^lookup failed: /);
    expect(calls()).toBe(1);
    expect(text(await run.call("lookup", { query: "Acme" }))).toContain("Acme: Leeds");
    const { ledger } = await run.finish();
    await close();
    expect(ledger.some((r) => r.type === "run_failed")).toBe(false);
    expect(ledger.filter((r) => r.type === "tool_call").map((r) => r.error ?? null)).toEqual(["ToolCallFailed", null]);
  });

  it("answered with a coding Stepgate cannot decode is ToolCallFailed naming it: recorded, and the run goes on; a gzip answer is decoded", async () => {
    let n = 0;
    const codings: Intercept = (_req, body, res) => {
      if (mcpMethod(body) !== "tools/call") return false;
      const id = (JSON.parse(body) as { id: number }).id;
      const answer = JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "Acme: Leeds, from a gzip body" }] } });
      if (n++ === 0) res.writeHead(200, { "content-type": "application/json", "content-encoding": "zstd" }).end(answer);
      else res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(answer));
      return true;
    };
    const { run, close } = await mcpRun(codings);
    const failed = await run.call("lookup", { query: "Acme" });
    expect(failed.isError).toBe(true);
    expect(structured(failed).state).toBe("running");
    expect(text(failed)).toBe('lookup failed: HTTP 200, the response uses content-encoding "zstd", which Stepgate cannot decode (it accepts gzip, deflate, br)');
    expect(text(await run.call("lookup", { query: "Acme" }))).toBe("Acme: Leeds, from a gzip body");
    const { ledger } = await run.finish();
    await close();
    expect(ledger.filter((r) => r.type === "tool_call")).toMatchObject([
      { operation: "lookup", status: 200, response_hash: null, error: "ToolCallFailed" },
      { operation: "lookup", response_hash: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it("answered as an event stream that never ends is ToolCallFailed at --request-timeout-ms: recorded, and the run goes on", async () => {
    // The answer's headers come at once, then keep-alive comments forever and never the JSON-RPC response.
    const endless = failFirstCall((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const timer = setInterval(() => res.write(": keep-alive\n\n"), 100);
      res.on("close", () => clearInterval(timer));
    });
    const { run, calls, close } = await mcpRun(endless, { args: ["--request-timeout-ms", "1500"] });
    // The client's own wait (REPLY_MS) is what would catch a hang.
    const failed = await run.call("lookup", { query: "Acme" });
    expect(failed.isError).toBe(true);
    expect(structured(failed).state).toBe("running");
    expect(text(failed)).toBe("lookup failed: no complete response within 1500 ms");
    expect(calls()).toBe(1);
    expect(text(await run.call("lookup", { query: "Acme" }))).toContain("Acme: Leeds");
    const { ledger } = await run.finish();
    await close();
    expect(ledger.some((r) => r.type === "run_failed")).toBe(false);
    expect(ledger.filter((r) => r.type === "tool_call")).toMatchObject([
      { operation: "lookup", status: null, response_hash: null, caller: "client", error: "ToolCallFailed" },
      { operation: "lookup", response_hash: expect.stringMatching(/^sha256:/) },
    ]);
  });

  const endsTheRun: Array<[string, (res: ServerResponse) => void, string[]]> = [
    ["ResponseTooLarge", (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ padding: "x".repeat(20_000) })), ["--response-bytes", "8192"]],
    ["EgressDenied", (res) => res.writeHead(307, { location: "http://127.0.0.2:9/mcp" }).end(), []],
  ];
  it("fails only the call a stream answered: a stream left open after its answer that later breaks the cap leaves the next call alone", async () => {
    // Call 1 is answered on a stream that stays open; once call 2 has reached
    // the server, that old stream sends more than --response-bytes, and only
    // then is call 2 answered.
    let first: ServerResponse | undefined;
    let second: { id: number; res: ServerResponse } | undefined;
    const lingering: Intercept = (_req, body, res) => {
      if (mcpMethod(body) !== "tools/call") return false;
      const id = (JSON.parse(body) as { id: number }).id;
      const answer = (text: string) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } })}\n\n`;
      if (!first) {
        first = res;
        res.writeHead(200, { "content-type": "text/event-stream" }).write(answer("first answer"));
        return true;
      }
      second = { id, res };
      res.writeHead(200, { "content-type": "text/event-stream" });
      first.write(`: ${"x".repeat(20_000)}\n\n`, () => setTimeout(() => res.end(answer("second answer")), 500));
      return true;
    };
    const { run, close } = await mcpRun(lingering, { args: ["--response-bytes", "8192"] });
    expect(text(await run.call("lookup", { query: "Acme" }))).toBe("first answer");
    const reply = await run.call("lookup", { query: "Acme" });
    expect(second).toBeDefined();
    expect(structured(reply).state).toBe("running");
    expect(text(reply)).toBe("second answer");
    first?.end();
    const { ledger } = await run.finish();
    await close();
    expect(ledger.filter((r) => r.type === "tool_call").map((r) => r.error ?? null)).toEqual([null, null]);
    expect(ledger.some((r) => r.type === "run_failed")).toBe(false);
  });

  it("answered as an endless event stream ends the run with ResponseTooLarge at --response-bytes, without waiting", async () => {
    const endless = failFirstCall((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const timer = setInterval(() => res.write(`event: message\ndata: ${"x".repeat(500)}\n\n`), 5);
      res.on("close", () => clearInterval(timer));
    });
    const { run, close } = await mcpRun(endless, { args: ["--response-bytes", "8192"] });
    const started = Date.now();
    const reply = await run.call("lookup", { query: "Acme" });
    expect(structured(reply)).toMatchObject({ state: "failed", error: "ResponseTooLarge" });
    // Well under the 60 s default --request-timeout-ms, which is when a reader that
    // waited for the stream to end would give up; generous for a loaded machine.
    expect(Date.now() - started).toBeLessThan(30_000);
    const { ledger } = await run.finish();
    await close();
    expect(ledger.at(-1)).toMatchObject({ type: "run_failed", error: "ResponseTooLarge" });
    expect(ledger.filter((r) => r.type === "tool_call")).toEqual([]);
  });

  it.each(endsTheRun)("still ends the run with Stepgate's own %s, not as the SDK's error", async (error, fail, args) => {
    const { run, close } = await mcpRun(failFirstCall(fail), { args });
    const reply = await run.call("lookup", { query: "Acme" });
    expect(structured(reply)).toMatchObject({ state: "failed", error });
    const { ledger } = await run.finish();
    await close();
    // The error ends the run: run_failed records it, and no tool_call does.
    expect(ledger.map((r) => r.type)).toEqual(["run_started", "step_started", "run_failed"]);
    expect(ledger.at(-1)).toMatchObject({ type: "run_failed", error });
  });
});

describe("effect: read on an MCP tool", () => {
  const failures: Array<[string, (res: ServerResponse) => void, number | null]> = [
    ["a 503", http503, 503],
    ["a broken connection", brokenConnection, null],
  ];
  it.each(failures)("retries its tools/call after %s, with a retry record against the step", async (_label, fail, status) => {
    const { run, calls, close } = await mcpRun(failFirstCall(fail), { effect: "read" });
    const reply = await run.call("lookup", { query: "Acme" });
    expect(reply.isError).toBeFalsy();
    expect(text(reply)).toContain("Acme: Leeds");
    expect(calls()).toBe(2);
    const { ledger } = await run.finish();
    await close();
    expect(ledger.filter((r) => r.type === "retry").map((r) => ({ step: r.step, operation: r.operation, attempt: r.attempt, status: r.status }))).toEqual([
      { step: "work", operation: "lookup", attempt: 1, status },
    ]);
  });

  // Both are error results and the run goes on; only the retried one names its attempts.
  const errorResults: Array<[string, Intercept, { effect?: "read" }, string, number, number[]]> = [
    ["that keeps failing is an error result naming the status and the attempts made", (_req, body, res) => mcpMethod(body) === "tools/call" && (http503(res), true), { effect: "read" }, "lookup failed: HTTP 503, after 5 attempts: busy", 5, [1, 2, 3, 4]],
    ["is what makes the call retried: without it the 503 is an error result sent once", failFirstCall(http503), {}, "lookup failed: HTTP 503: busy", 1, []],
  ];
  it.each(errorResults)("%s, and the run goes on", async (_label, intercept, options, said, sent, retried) => {
    const { run, calls, close } = await mcpRun(intercept, options);
    const reply = await run.call("lookup", { query: "Acme" });
    expect(reply.isError).toBe(true);
    expect(structured(reply).state).toBe("running");
    expect(text(reply)).toContain(said);
    expect(calls()).toBe(sent);
    const { ledger } = await run.finish();
    await close();
    expect(ledger.filter((r) => r.type === "retry").map((r) => r.attempt)).toEqual(retried);
    expect(ledger.some((r) => r.type === "run_failed")).toBe(false);
  });

  it("covers the operation's calls only: a 503 to tools/list still fails preflight", async () => {
    let failed = false;
    const listFails: Intercept = (_req, body, res) => {
      if (failed || mcpMethod(body) !== "tools/list") return false;
      failed = true;
      http503(res);
      return true;
    };
    const { run, close } = await mcpRun(listFails, { effect: "read" });
    expect(structured(run.first)).toMatchObject({ state: "failed", error: "PreflightFailed", details: { item: "tool suppliers" } });
    await run.finish();
    await close();
  });
});
