// What a run reports to the listener of the request it handles (the engine
// port behind MCP progress and log messages), through the engine alone, and
// how those events become monotone MCP progress.
import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { Approver } from "../../src/engine/context.js";
import type { RunEvent } from "../../src/engine/events.js";
import { EgressDenied } from "../../src/errors.js";
import { progressNotifier } from "../../src/mcp/progress.js";
import { fakeToolbox, harness } from "./harness.js";

const mechanicalThenAsk = `stepgate: "1"
id: events
inputs: { type: object, properties: { ids: { type: array } } }
tools:
  api: { openapi: { server: "https://api.example.com", document: { openapi: 3.1.0, info: { title: t, version: "1" }, paths: { /get: { get: { operationId: get } }, /away: { get: { operationId: away } } } } }, exposes: [get, away] }
steps:
  - id: fetch
    do:
      calls:
        - { id: item, operation: get, each: { var: inputs.ids }, arguments: { id: { var: item } } }
        - { id: once, operation: get, arguments: { id: last } }
      output: { n: { length: { var: responses.item } } }
    produces: { type: object }
  - id: sign
    instructions: Sign.
    tools: [away]
    produces: { type: object }
    gates: [{ id: person, approve: { message: OK? } }]
`;

/** An approver that asks within the call and always approves. */
const yes: Approver = { kind: "ask", approve: async () => ({ approved: true }) };

describe("run events", () => {
  it("reports each call of a mechanical step n of total with its call id, only to the request that made them", async () => {
    const h = harness(mechanicalThenAsk, fakeToolbox({ get: (args) => ({ result: args }), away: () => ({}) }));
    const seen: RunEvent[] = [];
    const reply = await h.registry.start(h.stepfile, { ids: ["a", "b", "c"] }, h.session, yes, (e) => void seen.push(e));
    expect(reply.kind).toBe("step");
    expect(seen).toEqual([
      { kind: "call", step: "fetch", call: "item", operation: "get", n: 1, total: 3 },
      { kind: "call", step: "fetch", call: "item", operation: "get", n: 2, total: 3 },
      { kind: "call", step: "fetch", call: "item", operation: "get", n: 3, total: 3 },
      { kind: "call", step: "fetch", call: "once", operation: "get", n: 1, total: 1 },
    ]);
  });

  it("reports a request egress refused; a listener that throws changes nothing", async () => {
    const refusing = fakeToolbox({});
    refusing.call = async () => {
      throw new EgressDenied("elsewhere.example", "https://elsewhere.example/x");
    };
    const yaml = mechanicalThenAsk.replace("each: { var: inputs.ids }", "each: []");
    const h = harness(yaml, refusing);
    const seen: RunEvent[] = [];
    expect(await h.registry.start(h.stepfile, {}, h.session, yes, (e) => void seen.push(e))).toMatchObject({ kind: "failed", error: { name: "EgressDenied" } });
    expect(seen).toEqual([
      { kind: "call", step: "fetch", call: "once", operation: "get", n: 1, total: 1 },
      { kind: "refused", step: "fetch", operation: "get", host: "elsewhere.example" },
    ]);
    const broken = harness(yaml, refusing);
    const reply = await broken.registry.start(broken.stepfile, {}, broken.session, yes, () => {
      throw new Error("a broken listener");
    });
    expect(reply).toMatchObject({ kind: "failed", error: { name: "EgressDenied" } });
  });

  it("reports a gate waiting for a person, to the submit that waits", async () => {
    const h = harness(mechanicalThenAsk.replace("each: { var: inputs.ids }", "each: []"), fakeToolbox({ get: () => ({}) }));
    const { run } = (await h.registry.start(h.stepfile, {}, h.session, yes)) as { run: string };
    const seen: RunEvent[] = [];
    expect(await h.registry.submit(run, h.session, {}, undefined, (e) => void seen.push(e))).toMatchObject({ kind: "finished" });
    expect(seen).toEqual([{ kind: "approval", step: "sign", gate: "person" }]);
  });

  it("tells who owned a run abandoned for idling", async () => {
    const h = harness(mechanicalThenAsk.replace("each: { var: inputs.ids }", "each: []"), fakeToolbox({ get: () => ({}) }), undefined, 30);
    const abandoned: unknown[] = [];
    h.registry.onAbandoned((a) => abandoned.push(a));
    const started = await h.registry.start(h.stepfile, {}, h.session, yes);
    expect(started.kind).toBe("step");
    while (abandoned.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(abandoned).toEqual([{ run: started.run, owner: "s1", reason: "idle" }]);
  });
});

describe("progress from run events", () => {
  it("grows with every notification and never passes its total, across preflight, calls and retries", async () => {
    const sent: Array<{ progress: number; total?: number; message?: string }> = [];
    const ctx = { mcpReq: { notify: async (n: { params: { progress: number; total?: number; message?: string } }) => void sent.push(n.params) } } as unknown as ServerContext;
    const progress = progressNotifier(ctx, "token-1")!;
    progress({ kind: "preflight", item: "tool api", n: 1, total: 2 });
    progress({ kind: "preflight", item: "tool mcp", n: 2, total: 2 });
    progress({ kind: "call", step: "fetch", call: "item", operation: "get", n: 1, total: 3 });
    progress({ kind: "retry", step: "fetch", operation: "get", attempt: 1, status: 503, waitMs: 500 });
    progress({ kind: "call", step: "fetch", call: "item", operation: "get", n: 2, total: 3 });
    progress({ kind: "call", step: "fetch", call: "item", operation: "get", n: 3, total: 3 });
    expect(sent.map((p) => [p.progress, p.total])).toEqual([
      [1, 2],
      [2, 2],
      [3, 5],
      [4, 6],
      [5, 6],
      [6, 6],
    ]);
    expect(sent[3]!.message).toBe("get: HTTP 503; retry 1 in 500 ms");
    expect(progressNotifier(ctx, undefined)).toBeUndefined();
  });
});
