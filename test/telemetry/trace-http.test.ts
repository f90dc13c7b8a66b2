// Telemetry through the built CLI over --http, with both protocol eras: a
// 2025-11-25 session runs the whole scenario (its session id leaves only as
// a pseudonym, the person is asked within the call); a 2026-07-28 client runs
// it too (the person is asked between calls); and a 2026-07-28 client that
// cannot ask a person fails preflight, which the failed-run metric counts by
// error type.
import { createHash } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { startCliServer } from "../http/fixtures/cli-server.js";
import { SPAN_KIND, startOtlpReceiver, until, type OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.js";
import { CLIENT_TRACE, STEPFILE_ID, approving, clientSpan, driveRun, expectNoSecrets, newTraceId, otelEnv, startScenario, traceparent, type Scenario } from "./scenario.js";

let receiver: OtlpReceiver;
let scenario: Scenario;
let sessionId = "";
let modernSpan = "";
const modernTrace = newTraceId();

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  scenario = await startScenario();
  const server = await startCliServer([scenario.stepfilePath], { env: { ...scenario.env, ...otelEnv(receiver.endpoint) } });
  try {
    const legacy = new Client({ name: "telemetry-2025", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    approving(legacy);
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await legacy.connect(transport);
    sessionId = transport.sessionId ?? "";
    await legacy.listTools();
    await driveRun(legacy);
    await transport.terminateSession();
    await legacy.close();

    const asking = new Client({ name: "telemetry-2026-asks", version: "1.0.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    approving(asking);
    await asking.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await driveRun(asking, modernTrace);
    await asking.close();

    const modern = new Client({ name: "telemetry-2026", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    modernSpan = clientSpan();
    const failed = await modern.callTool({ name: STEPFILE_ID, arguments: { item: "x" }, _meta: { traceparent: traceparent(modernSpan) } });
    expect(failed.structuredContent).toMatchObject({ state: "failed", error: "PreflightFailed" });
    await modern.close();
  } finally {
    // SIGTERM: the server ends its sessions and flushes what it holds.
    await server.stop();
  }
  await until("the runs' totals", () => receiver.points("stepgate.runs.failed").length > 0 && receiver.points("mcp.server.session.duration").length > 0);
}, budget({ starts: 1, replies: 10 }));

afterAll(async () => {
  await receiver?.close();
  await scenario?.api.close();
});

const pseudonym = (id: string) => createHash("sha256").update(id).digest("hex").slice(0, 32);

describe("telemetry over HTTP", () => {
  it("gives a 2025-11-25 session's spans its session as a pseudonym, and the run the same tree as over stdio", () => {
    expect(sessionId).not.toBe("");
    const spans = receiver.spans().filter((s) => s.attributes["mcp.protocol.version"] === "2025-11-25");
    const list = spans.find((s) => s.name === "tools/list");
    expect(list?.attributes).toMatchObject({ "mcp.session.id": pseudonym(sessionId), "network.transport": "tcp" });
    const start = spans.find((s) => s.name === `tools/call ${STEPFILE_ID}` && s.traceId === CLIENT_TRACE)!;
    expect(start.attributes["mcp.session.id"]).toBe(pseudonym(sessionId));
    const trace = receiver.spans().filter((s) => s.traceId === CLIENT_TRACE);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const path = (span: ReceivedSpan) => {
      const names: string[] = [];
      for (let s: ReceivedSpan | undefined = span; s; s = byId.get(s.parentSpanId)) names.unshift(s.name);
      return names.join(" > ");
    };
    const get = trace.find((s) => s.kind === SPAN_KIND.client && s.name === "GET /items/{id}")!;
    expect(path(get)).toBe(`tools/call ${STEPFILE_ID} > run ${STEPFILE_ID} > step look > call getItem > GET /items/{id}`);
    expect(trace.find((s) => s.name === "approval person")).toBeDefined();
  });

  it("waits for a 2026-07-28 client's person between calls, from the approval reply to the repeated submit", () => {
    const trace = receiver.spans().filter((s) => s.traceId === modernTrace);
    const approval = trace.find((s) => s.name === "approval person")!;
    expect(approval.attributes).toMatchObject({ "stepgate.approval.mode": "between-calls", "stepgate.gate.id": "person" });
    const attempt = trace.find((s) => s.spanId === approval.parentSpanId)!;
    expect(attempt).toMatchObject({ name: "step look", attributes: { "stepgate.step.attempt": 2, "stepgate.step.outcome": "passed" } });
    // It began in the submit that got the approval reply, which it links to, and ended in the repeated one.
    const submits = trace.filter((s) => s.name === "tools/call stepgate_submit").sort((a, b) => (a.start < b.start ? -1 : 1));
    expect(submits.length).toBeGreaterThanOrEqual(3);
    expect(submits.every((s) => s.attributes["mcp.protocol.version"] === "2026-07-28")).toBe(true);
    expect(approval.links.some((l) => submits.some((s) => s.spanId === l.spanId))).toBe(true);
    expect(approval.end).toBeGreaterThan(submits[submits.length - 2]!.end);
  });

  it("continues a 2026-07-28 request's trace, which has no session, and records the failed run's error type", () => {
    const start = receiver.spans().find((s) => s.parentSpanId === modernSpan)!;
    expect(start.name).toBe(`tools/call ${STEPFILE_ID}`);
    expect(start.attributes).toMatchObject({ "mcp.protocol.version": "2026-07-28", "network.transport": "tcp" });
    expect(start.attributes["mcp.session.id"]).toBeUndefined();
    const run = receiver.spans().find((s) => s.parentSpanId === start.spanId && s.name === `run ${STEPFILE_ID}`)!;
    expect(run.attributes).toMatchObject({ "stepgate.run.outcome": "failed", "error.type": "PreflightFailed" });
    const failed = receiver.points("stepgate.runs.failed").find((p) => p.attributes["error.type"] === "PreflightFailed");
    expect(failed).toMatchObject({ value: 1, attributes: { "stepgate.stepfile.id": STEPFILE_ID } });
  });

  it("counts the sessions and their durations", () => {
    const durations = receiver.points("mcp.server.session.duration").filter((p) => p.attributes["network.transport"] === "tcp");
    // The 2025 session, and the one all 2026-07-28 requests share.
    expect(durations.reduce((n, p) => n + p.value, 0)).toBe(2);
    expect(receiver.points("stepgate.runs.finished").find((p) => p.attributes["stepgate.stepfile.id"] === STEPFILE_ID)?.value).toBe(2);
    expect(receiver.points("stepgate.sessions.active").find((p) => p.attributes["network.transport"] === "tcp")?.value).toBe(0);
    const tools = receiver.points("mcp.server.operation.duration").filter((p) => p.attributes["mcp.method.name"] === "tools/list");
    expect(tools.length).toBeGreaterThan(0);
  });

  it("exports no credential, input, output, response body or session id", () => {
    expectNoSecrets(receiver.bodies, [sessionId]);
  });
});
