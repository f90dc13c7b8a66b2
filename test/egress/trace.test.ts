// The egress side of tracing (EgressPolicy.trace): one span per request
// whatever its retries, told each retry and the last status, and its trace
// headers sent only on hops to hosts the stepfile declares: never on a hop
// that one of the seed's exceptions (allowAnyHost) lets reach another host.
import { describe, expect, it } from "vitest";
import { egress, type EgressTrace, type RetryRecord } from "../../src/egress/index.js";
import { ToolCallFailed } from "../../src/errors.js";
import { json, loopbackPerTest, testPolicy } from "./loopback.js";

const { serve } = loopbackPerTest();
const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

function recordingTrace() {
  const begun: Array<{ operation: string; method: string; url: string; route?: string }> = [];
  const retries: RetryRecord[] = [];
  const ended: unknown[] = [];
  const trace: EgressTrace = {
    begin: (request) => {
      begun.push({ ...request, url: request.url.href });
      return { headers: () => ({ traceparent: TRACEPARENT }), retried: (r) => retries.push(r), end: (outcome) => ended.push(outcome) };
    },
    context: () => ({ traceparent: TRACEPARENT }),
  };
  return { trace, begun, retries, ended };
}

describe("egress tracing", () => {
  it("makes one span of a request and its retries, and sends traceparent to the declared host on each attempt", async () => {
    let calls = 0;
    const api = await serve((_req, res) => (++calls === 1 ? json(res, 503, {}, { "retry-after": "0" }) : json(res, 200, { ok: true })));
    const watch = recordingTrace();
    await egress({ operation: "getItem", method: "GET", url: `${api.origin}/items/K-1?q=1`, route: "/items/{id}" }, testPolicy([api.host], { trace: watch.trace }));
    expect(watch.begun).toEqual([{ operation: "getItem", method: "GET", url: `${api.origin}/items/K-1?q=1`, route: "/items/{id}" }]);
    expect(watch.retries).toMatchObject([{ operation: "getItem", attempt: 1, status: 503 }]);
    expect(watch.ended).toEqual([{ status: 200 }]);
    expect(api.received.map((r) => r.headers.traceparent)).toEqual([TRACEPARENT, TRACEPARENT]);
  });

  it("does not send traceparent to a host the stepfile does not declare, even where an exception lets the request through", async () => {
    const declared = await serve((_req, res) => json(res, 200, {}));
    const other = await serve((_req, res) => json(res, 200, {}));
    const watch = recordingTrace();
    // allowAnyHost: as an MCP server's authorization metadata is fetched, from a host no tool names.
    await egress({ operation: "metadata", method: "GET", url: `${other.origin}/.well-known/x`, allowAnyHost: true }, testPolicy([declared.host], { trace: watch.trace }));
    expect(other.received).toHaveLength(1);
    expect(other.received[0]!.headers.traceparent).toBeUndefined();
    expect(watch.begun).toHaveLength(1);
  });

  it("ends the span with what was thrown when no answer came", async () => {
    const api = await serve((req) => req.socket.destroy());
    const watch = recordingTrace();
    await expect(egress({ operation: "post", method: "POST", url: `${api.origin}/x`, body: "{}" }, testPolicy([api.host], { trace: watch.trace }))).rejects.toBeInstanceOf(ToolCallFailed);
    expect(watch.ended).toHaveLength(1);
    expect((watch.ended[0] as { error: unknown }).error).toBeInstanceOf(ToolCallFailed);
  });

  it("sends nothing extra when nothing watches", async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    await egress({ operation: "get", method: "GET", url: `${api.origin}/x` }, testPolicy([api.host]));
    expect(api.received[0]!.headers.traceparent).toBeUndefined();
  });
});
