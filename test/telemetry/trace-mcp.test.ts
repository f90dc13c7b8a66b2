// A remote MCP tool's requests carry the trace on, as the MCP semantic
// conventions say a client does: traceparent in the HTTP headers and in the
// tools/call request's params._meta, both in the client's trace.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cliEnvironment } from "../support/stepgate.js";
import { afterAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { startMcpFixture } from "../support/mcp-fixture.js";
import { stepgateBin } from "../support/paths.js";
import { startOtlpReceiver, until } from "./otlp-receiver.js";
import { CLIENT_TRACE, clientSpan, otelEnv, traceparent } from "./scenario.js";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => Promise.all(closers.map((close) => close())));

describe("telemetry to a remote MCP server", () => {
  it(
    "sends traceparent in the headers and in params._meta of tools/call",
    async () => {
      const receiver = await startOtlpReceiver();
      const remote = await startMcpFixture({ tools: [{ name: "lookup", inputSchema: { type: "object", properties: { q: { type: "string" } } }, text: '{"found":true}' }] });
      closers.push(receiver.close, remote.close);
      const dir = mkdtempSync(join(tmpdir(), "stepgate-telemetry-mcp-"));
      const path = join(dir, "remote.stepfile.json");
      writeFileSync(
        path,
        JSON.stringify({
          stepgate: "1",
          id: "remote-lookup",
          inputs: { type: "object" },
          tools: { remote: { mcp: { url: `${remote.origin}/mcp` }, exposes: ["lookup"] } },
          steps: [{ id: "ask", tools: ["lookup"], instructions: "Look it up.", produces: { type: "object" }, gates: [{ id: "any", schema: { type: "object" } }] }],
        }),
      );
      const client = new Client({ name: "telemetry-mcp", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [stepgateBin(), path], env: { ...cliEnvironment(), ...otelEnv(receiver.endpoint) }, stderr: "pipe" }));
      const meta = () => ({ _meta: { traceparent: traceparent(clientSpan()) } });
      const start = await client.callTool({ name: "remote-lookup", arguments: {}, ...meta() });
      const run = (start.structuredContent as { run: string }).run;
      const got = await client.callTool({ name: "stepgate_call", arguments: { run, operation: "lookup", arguments: { q: "x" } }, ...meta() });
      expect(got.isError).toBeFalsy();
      await client.close();
      await until("the spans", () => receiver.spans().some((s) => s.name === "call lookup"));

      const call = remote.received.find((r) => r.body.includes('"tools/call"'))!;
      const body = JSON.parse(call.body) as { params: { _meta?: { traceparent?: string } } };
      const inMeta = body.params._meta?.traceparent ?? "";
      expect(inMeta).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[0-9a-f]{16}-01$`));
      expect(call.headers.traceparent).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[0-9a-f]{16}-01$`));
      // _meta names the call's span; the header names the HTTP request's span beneath it.
      const spans = receiver.spans();
      const callSpan = spans.find((s) => s.name === "call lookup")!;
      expect(inMeta.split("-")[2]).toBe(callSpan.spanId);
      const post = spans.find((s) => s.spanId === call.headers.traceparent!.split("-")[2])!;
      expect(post.parentSpanId).toBe(callSpan.spanId);
      expect(post.attributes).toMatchObject({ "http.request.method": "POST", "url.full": `${remote.origin}/mcp` });
    },
    budget({ starts: 1, replies: 3 }),
  );
});
