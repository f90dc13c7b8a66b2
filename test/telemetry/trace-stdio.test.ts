// Telemetry through the built CLI over stdio, with an OTLP/HTTP receiver on
// loopback: a run with a retried call, a failed gate, a verifier and an
// approval becomes one trace under the client's own span, with the MCP
// semantic conventions' names and attributes; the API sees the trace go on;
// the metrics arrive; and no secret of the run is in anything exported.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cliEnvironment } from "../support/stepgate.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { stepgateBin } from "../support/paths.js";
import { SPAN_KIND, renderSvg, renderTree, startOtlpReceiver, until, type OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.js";
import { CLIENT_TRACE, STEPFILE_ID, approving, driveRun, expectNoSecrets, otelEnv, startScenario, type Scenario } from "./scenario.js";

let receiver: OtlpReceiver;
let scenario: Scenario;
let run = "";
let requestSpans: string[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  scenario = await startScenario();
  const client = new Client({ name: "telemetry-test", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  approving(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [stepgateBin(), scenario.stepfilePath],
      env: { ...cliEnvironment(), ...scenario.env, ...otelEnv(receiver.endpoint) },
      stderr: "pipe",
    }),
  );
  await client.listTools();
  ({ run, requestSpans } = await driveRun(client));
  await client.close();
  // Closing ends the process, which flushes its last spans and metrics.
  await until("the session's duration", () => receiver.points("mcp.server.session.duration").length > 0);
  // STEPGATE_TRACE_PICTURE=<dir> writes the run's trace there as text and as a picture (docs/observability.md shows both).
  const pictures = process.env.STEPGATE_TRACE_PICTURE;
  if (pictures) {
    const trace = receiver.spans().filter((s) => s.traceId === CLIENT_TRACE);
    writeFileSync(join(pictures, "trace.txt"), `${renderTree(trace)}\n`);
    writeFileSync(join(pictures, "trace.svg"), renderSvg(trace));
  }
}, budget({ starts: 1, replies: 6 }));

afterAll(async () => {
  await receiver?.close();
  await scenario?.api.close();
});

const one = (spans: ReceivedSpan[], name: string, where: (s: ReceivedSpan) => boolean = () => true) => {
  const found = spans.filter((s) => s.name === name && where(s));
  expect(found, `spans named ${name}`).toHaveLength(1);
  return found[0]!;
};
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);

describe("telemetry over stdio", () => {
  it("continues the client's trace: each tools/call is a SERVER span under the client span that sent it", () => {
    const spans = receiver.spans().filter((s) => s.traceId === CLIENT_TRACE);
    const servers = spans.filter((s) => s.kind === SPAN_KIND.server);
    expect(servers.map((s) => s.name)).toEqual([`tools/call ${STEPFILE_ID}`, "tools/call stepgate_call", "tools/call stepgate_submit", "tools/call stepgate_submit"]);
    servers.forEach((span, i) => {
      expect(span.parentSpanId).toBe(requestSpans[i]);
      expect(span.attributes).toMatchObject({ "mcp.method.name": "tools/call", "mcp.protocol.version": "2025-11-25", "network.transport": "pipe", "gen_ai.operation.name": "execute_tool" });
      expect(span.attributes["jsonrpc.request.id"]).toEqual(expect.any(String));
      // stdio has no session id to give.
      expect(span.attributes["mcp.session.id"]).toBeUndefined();
    });
    expect(servers[0]!.attributes["gen_ai.tool.name"]).toBe(STEPFILE_ID);
    // Later requests of the run link to its span.
    const runSpan = one(spans, `run ${STEPFILE_ID}`);
    for (const later of servers.slice(1)) {
      expect(later.attributes["stepgate.run.id"]).toBe(run);
      expect(later.links).toContainEqual({ traceId: CLIENT_TRACE, spanId: runSpan.spanId });
    }
  });

  it("names initialize and tools/list as the conventions do, in traces of their own", () => {
    const spans = receiver.spans();
    for (const name of ["initialize", "tools/list"]) {
      const span = one(spans, name);
      expect(span.kind).toBe(SPAN_KIND.server);
      expect(span.parentSpanId).toBe("");
      expect(span.attributes).toMatchObject({ "mcp.method.name": name, "mcp.protocol.version": "2025-11-25" });
    }
  });

  it("puts the run under the call that started it, with step attempts, gate verdicts, calls, retries, the verifier and the approval below", () => {
    const spans = receiver.spans().filter((s) => s.traceId === CLIENT_TRACE);
    const start = one(spans, `tools/call ${STEPFILE_ID}`);
    const runSpan = one(spans, `run ${STEPFILE_ID}`);
    expect(runSpan.parentSpanId).toBe(start.spanId);
    expect(runSpan.attributes).toMatchObject({ "stepgate.run.id": run, "stepgate.stepfile.id": STEPFILE_ID, "stepgate.run.outcome": "finished" });
    expect(String(runSpan.attributes["stepgate.stepfile.identity"])).toMatch(/^sha256:[0-9a-f]{64}$/);

    const steps = childrenOf(spans, runSpan).filter((s) => s.name === "step look");
    expect(steps.map((s) => s.attributes["stepgate.step.attempt"])).toEqual([1, 2]);
    const [first, second] = steps as [ReceivedSpan, ReceivedSpan];
    expect(first.attributes["stepgate.step.outcome"]).toBe("failed");
    // Every gate but the person's is checked on each attempt; the person is asked only once the others pass.
    expect(first.events).toEqual(
      expect.arrayContaining([
        { name: "stepgate.gate", attributes: { "stepgate.gate.id": "names-it", "stepgate.gate.kind": "predicate", "stepgate.gate.verdict": "fail" } },
        { name: "stepgate.gate", attributes: { "stepgate.gate.id": "checked", "stepgate.gate.kind": "http", "stepgate.gate.verdict": "pass" } },
      ]),
    );
    expect(first.events).toHaveLength(2);
    expect(second.attributes["stepgate.step.outcome"]).toBe("passed");
    expect(second.events.map((e) => `${String(e.attributes["stepgate.gate.id"])} ${String(e.attributes["stepgate.gate.verdict"])}`).sort()).toEqual(["checked pass", "names-it pass", "person pass"]);
    expect(childrenOf(spans, runSpan).map((s) => s.name)).toContain("preflight");

    // The call: made by the stepgate_call request, inside attempt 1, linked back to that request.
    const call = one(childrenOf(spans, first), "call getItem");
    const callRequest = one(spans, "tools/call stepgate_call");
    expect(call.links).toContainEqual({ traceId: CLIENT_TRACE, spanId: callRequest.spanId });
    const get = one(childrenOf(spans, call), "GET /items/{id}");
    expect(get.kind).toBe(SPAN_KIND.client);
    expect(get.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "server.port": scenario.api.port,
      "url.full": `${scenario.api.origin}/items/{id}`,
      "url.template": "/items/{id}",
      "http.response.status_code": 200,
    });
    expect(get.events).toEqual([{ name: "stepgate.retry", attributes: { "stepgate.retry.attempt": 1, "stepgate.retry.wait_ms": 0, "http.response.status_code": 503 } }]);

    for (const attempt of [first, second]) {
      const verify = one(childrenOf(spans, attempt), "verify checked");
      expect(verify.attributes).toMatchObject({ "stepgate.gate.id": "checked", "stepgate.verifier": "checker" });
      const post = one(childrenOf(spans, verify), "POST");
      expect(post.attributes).toMatchObject({ "url.full": `${scenario.api.origin}/verify`, "http.response.status_code": 200 });
    }
    const approval = one(childrenOf(spans, second), "approval person");
    expect(approval.attributes["stepgate.approval.mode"]).toBe("within-call");
  });

  it("sends the trace on to the API in traceparent, from the span of each request", () => {
    const spans = receiver.spans().filter((s) => s.traceId === CLIENT_TRACE);
    const get = one(spans, "GET /items/{id}");
    const posts = spans.filter((s) => s.name === "POST").map((s) => `00-${CLIENT_TRACE}-${s.spanId}-01`);
    const items = scenario.api.received.filter((r) => r.path.startsWith("/items/"));
    expect(items).toHaveLength(2);
    for (const request of items) {
      expect(request.headers.traceparent).toBe(`00-${CLIENT_TRACE}-${get.spanId}-01`);
      expect(request.headers.tracestate).toBe("agent=1");
    }
    expect(scenario.api.received.filter((r) => r.path === "/verify").map((r) => r.headers.traceparent)).toEqual(posts);
  });

  it("exports the operation, session, run, gate and request metrics", () => {
    const point = (metric: string, where: Record<string, unknown>) => receiver.points(metric).filter((p) => Object.entries(where).every(([k, v]) => p.attributes[k] === v));
    expect(point("mcp.server.operation.duration", { "mcp.method.name": "tools/call", "gen_ai.tool.name": "stepgate_submit", "network.transport": "pipe" })[0]?.value).toBe(2);
    expect(point("mcp.server.operation.duration", { "mcp.method.name": "initialize" })[0]?.value).toBe(1);
    expect(point("mcp.server.session.duration", { "network.transport": "pipe" })[0]?.value).toBe(1);
    expect(point("stepgate.runs.started", { "stepgate.stepfile.id": STEPFILE_ID })[0]?.value).toBe(1);
    expect(point("stepgate.runs.finished", { "stepgate.stepfile.id": STEPFILE_ID })[0]?.value).toBe(1);
    expect(point("stepgate.gate.failures", { "stepgate.gate.id": "names-it", "stepgate.gate.kind": "predicate" })[0]?.value).toBe(1);
    expect(point("http.client.request.duration", { "server.address": "127.0.0.1", "http.request.method": "GET", "http.response.status_code": 200 })[0]?.value).toBe(1);
    expect(point("http.client.request.duration", { "http.request.method": "POST", "http.response.status_code": 200 })[0]?.value).toBe(2);
    expect(point("stepgate.runs.active", { "stepgate.stepfile.id": STEPFILE_ID })[0]?.value).toBe(0);
    expect(point("stepgate.sessions.active", { "network.transport": "pipe" })[0]?.value).toBe(0);
  });

  it("describes the service from OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES", () => {
    const span = receiver.spans()[0]!;
    expect(span.resource).toMatchObject({ "service.name": "stepgate-under-test", "deployment.environment.name": "test", "service.version": expect.any(String) });
  });

  it("exports no credential, input, output or response body", () => {
    expectNoSecrets(receiver.bodies);
  });
});
