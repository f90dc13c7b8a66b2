import { describe, expect, it } from "vitest";
import { fakeToolbox, harness } from "./harness.js";
import { newSession } from "../../src/session.js";
import { ResponseTooLarge, ToolCallFailed } from "../../src/errors.js";

/** An inline document with one GET operation per name (a tool may expose only what its document has). */
const documentOf = (exposes: string) =>
  `{ openapi: 3.1.0, paths: { ${exposes
    .split(",")
    .map((name) => `"/${name.trim()}": { get: { operationId: ${name.trim()} } }`)
    .join(", ")} } }`;

/** A stepfile's head whose one tool exposes `exposes`; its steps follow. */
const withTools = (id: string, exposes: string) => `stepgate: "1"
id: ${id}
inputs: { type: object }
tools:
  cat:
    openapi: { server: "http://127.0.0.1:1", document: ${documentOf(exposes)} }
    exposes: [${exposes}]
`;

const withTool = `${withTools("shelf", "listItems, other")}steps:
  - id: list
    tools: [listItems]
    instructions: List.
    produces: { type: object, required: [ids], properties: { ids: { type: array } } }
    retries: 1
    gates:
      - id: from-calls
        message: ids must come from listItems
        predicate: { in: [{ var: output.ids.0 }, { var: calls.0.result.ids }] }
`;

describe("a run's calls", () => {
  it("refuses an operation the step does not list, with a tool_refused record and no request", async () => {
    const tools = fakeToolbox({ listItems: () => ({ result: { ids: [1] } }), other: () => ({}) });
    const h = harness(withTool, tools);
    const start = await h.start();
    const reply = await h.registry.call(start.run, h.session, "other", {});
    expect(reply).toMatchObject({ kind: "call", isError: true, text: expect.stringContaining("other is not available in this step.") });
    expect(tools.made).toEqual([]);
    expect(h.types(start.run)).toEqual(["run_started", "step_started", "tool_refused"]);
  });

  it("returns argument problems to the client without a request", async () => {
    const tools = fakeToolbox({ listItems: () => ({ result: { ids: [1] } }) });
    const h = harness(withTool, tools);
    const start = await h.start();
    const reply = await h.registry.call(start.run, h.session, "listItems", { bad: 1 });
    expect(reply).toMatchObject({ isError: true, text: "Invalid arguments for listItems: bad is not allowed" });
    expect(tools.made).toEqual([]);
  });

  it("keeps every call as evidence for gates and records a tool_call", async () => {
    const h = harness(withTool, fakeToolbox({ listItems: () => ({ result: { ids: ["K-1"] } }) }));
    const start = await h.start();
    await h.registry.call(start.run, h.session, "listItems", {});
    expect(await h.registry.submit(start.run, h.session, { ids: ["K-9"] })).toMatchObject({ kind: "retry", failures: [{ gate: "from-calls" }] });
    expect(await h.registry.submit(start.run, h.session, { ids: ["K-1"] })).toMatchObject({ kind: "finished", outputs: { list: { ids: ["K-1"] } } });
    const call = h.records(start.run).find((r) => r.type === "tool_call");
    expect(call).toMatchObject({ operation: "listItems", caller: "client", status: 200, shown_length: 15, response_hash: "sha256:00" });
  });

  it("records a call that got no usable answer, with its error type, and lets the run go on after ToolCallFailed", async () => {
    const h = harness(withTool, fakeToolbox({ listItems: () => { throw new ToolCallFailed("listItems", 503, "busy"); } }));
    const start = await h.start();
    const reply = await h.registry.call(start.run, h.session, "listItems", {});
    expect(reply).toMatchObject({ kind: "call", state: "running", isError: true, text: "listItems failed: HTTP 503: busy" });
    const call = h.records(start.run).find((r) => r.type === "tool_call");
    expect(call).toMatchObject({ step: "list", tool: "fake", operation: "listItems", host: "127.0.0.1", status: 503, credential: null, response_hash: null, response_length: null, shown_length: null, caller: "client", error: "ToolCallFailed" });
    expect(call!.duration_ms).toEqual(expect.any(Number));
    expect(h.types(start.run)).toEqual(["run_started", "step_started", "tool_call"]);
  });

  it("says after how many attempts an API's error answer came, as a mechanical step's failure does, and names no count for one sent once", async () => {
    const answers = [5, 1, undefined];
    const h = harness(withTool, fakeToolbox({ listItems: () => ({ isError: true, status: 500, text: 'HTTP 500: {"error":"down"}', attempts: answers.shift() }) }));
    const start = await h.start();
    expect(await h.registry.call(start.run, h.session, "listItems", {})).toMatchObject({ kind: "call", state: "running", isError: true, text: 'HTTP 500, after 5 attempts: {"error":"down"}' });
    expect(await h.registry.call(start.run, h.session, "listItems", {})).toMatchObject({ isError: true, text: 'HTTP 500: {"error":"down"}' });
    expect(await h.registry.call(start.run, h.session, "listItems", {})).toMatchObject({ isError: true, text: 'HTTP 500: {"error":"down"}' });
    const shown = h.records(start.run).filter((r) => r.type === "tool_call").map((r) => r.shown_length);
    expect(shown).toEqual(['HTTP 500, after 5 attempts: {"error":"down"}'.length, 'HTTP 500: {"error":"down"}'.length, 'HTTP 500: {"error":"down"}'.length]);
  });

  it("leaves an error that ends the run to run_failed, with no tool_call record (as the conformance suite's egress case)", async () => {
    const h = harness(withTool, fakeToolbox({ listItems: () => { throw new ResponseTooLarge("listItems", 10); } }));
    const start = await h.start();
    expect(await h.registry.call(start.run, h.session, "listItems", {})).toMatchObject({ kind: "failed", error: { name: "ResponseTooLarge" } });
    expect(h.types(start.run)).toEqual(["run_started", "step_started", "run_failed"]);
    expect(h.records(start.run)[2]).toMatchObject({ error: "ResponseTooLarge", step: "list" });
  });

  it("ends the run on a mechanical step's failed call, recorded by run_failed alone", async () => {
    const mechanical = `${withTools("fetcher", "listItems")}steps:
  - id: fetch
    do:
      calls:
        - { id: items, operation: listItems }
      output: { n: 1 }
    produces: { type: object }
`;
    const h = harness(mechanical, fakeToolbox({ listItems: () => { throw new ToolCallFailed("listItems", null, "", "no complete response within 10 ms"); } }));
    const start = await h.start();
    expect(start).toMatchObject({ kind: "failed", error: { name: "ToolCallFailed" } });
    expect(h.types(start.run)).toEqual(["run_started", "step_started", "run_failed"]);
    expect(h.records(start.run)[2]).toMatchObject({ error: "ToolCallFailed", step: "fetch" });
  });

  it("stops the run with CallLimitReached when a step uses up its calls, across attempts", async () => {
    const h = harness(withTool, fakeToolbox({ listItems: () => ({ result: { ids: [] } }) }), { callsPerStep: 2, toolResultChars: 100 });
    const start = await h.start();
    await h.registry.call(start.run, h.session, "listItems", {});
    await h.registry.submit(start.run, h.session, { ids: ["x"] });
    await h.registry.call(start.run, h.session, "listItems", {});
    const third = await h.registry.call(start.run, h.session, "listItems", {});
    expect(third).toMatchObject({ kind: "failed", error: { name: "CallLimitReached" } });
    expect(h.types(start.run).at(-1)).toBe("run_failed");
  });

  it("cuts long results with a visible note", async () => {
    const h = harness(withTool, fakeToolbox({ listItems: () => ({ result: { ids: [] }, text: "x".repeat(50) }) }), { callsPerStep: 5, toolResultChars: 10 });
    const start = await h.start();
    const reply = await h.registry.call(start.run, h.session, "listItems", {});
    expect(reply).toMatchObject({ text: "xxxxxxxxxx\n[truncated: showed 10 of 50 characters]" });
  });

  it("handles calls sent at once one at a time, in order", async () => {
    let active = 0;
    let most = 0;
    const tools = fakeToolbox({ listItems: () => ({ result: { ids: [] } }) });
    const slow = { ...tools, call: async (name: string, args: Record<string, unknown>, onRetry: never) => {
      active += 1;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 10));
      active -= 1;
      return tools.call(name, args, onRetry);
    } };
    const h = harness(withTool, slow);
    const start = await h.start();
    await Promise.all([1, 2, 3, 4].map((i) => h.registry.call(start.run, h.session, "listItems", { i })));
    expect(most).toBe(1);
    expect(tools.made.map(([, a]) => (a as { i: number }).i)).toEqual([1, 2, 3, 4]);
  });
});

describe("run ownership and idling", () => {
  const simple = `stepgate: "1"
id: simple
inputs: { type: object }
steps:
  - id: only
    instructions: Say something.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`;

  it("gives RunNotActive to another session naming the run", async () => {
    const h = harness(simple);
    const start = await h.start();
    const reply = await h.registry.submit(start.run, newSession("intruder"), {});
    expect(reply).toMatchObject({ kind: "failed", error: { name: "RunNotActive" } });
    expect(await h.registry.submit(start.run, h.session, {})).toMatchObject({ kind: "finished" });
  });

  it("gives RunNotActive after the run finished, and for runs that never existed", async () => {
    const h = harness(simple);
    const start = await h.start();
    await h.registry.submit(start.run, h.session, {});
    expect(await h.registry.submit(start.run, h.session, {})).toMatchObject({ state: "finished", error: { name: "RunNotActive", details: { state: "finished" } } });
    expect(await h.registry.submit("nope", h.session, {})).toMatchObject({ error: { name: "RunNotActive", details: { state: "unknown" } } });
  });

  it("abandons a run the client stops calling, and later calls get RunNotActive", async () => {
    const h = harness(simple, undefined, undefined, 30);
    const start = await h.start();
    await new Promise((r) => setTimeout(r, 80));
    expect(h.types(start.run)).toEqual(["run_started", "step_started", "run_abandoned"]);
    expect(h.registry.size).toBe(0);
    expect(await h.registry.submit(start.run, h.session, {})).toMatchObject({ error: { name: "RunNotActive", details: { state: "abandoned" } } });
  });

  it("abandons a session's runs when the session ends", async () => {
    const h = harness(simple);
    const a = await h.start();
    const b = await h.start();
    await h.registry.endSession(h.session);
    expect(h.types(a.run).at(-1)).toBe("run_abandoned");
    expect(h.types(b.run).at(-1)).toBe("run_abandoned");
    expect(h.records(a.run).at(-1)).toMatchObject({ reason: "session_closed" });
  });
});

describe("steps", () => {
  it("fails with PlaceholderUnresolved when a placeholder has no value", async () => {
    const h = harness(`stepgate: "1"
id: holes
inputs: { type: object, properties: { who: {} } }
steps:
  - id: only
    instructions: "Greet {{inputs.who}}."
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`);
    expect(await h.start({})).toMatchObject({ kind: "failed", error: { name: "PlaceholderUnresolved" } });
    expect(await h.start({ who: { first: "Ada" } })).toMatchObject({ kind: "step", step: { instructions: 'Greet {\n  "first": "Ada"\n}.' } });
  });

  it("refuses inputs that break the inputs schema with PreflightFailed naming inputs", async () => {
    const h = harness(`stepgate: "1"
id: typed
inputs: { type: object, required: [n], properties: { n: { type: integer } } }
steps:
  - id: only
    instructions: Count.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`);
    const reply = await h.start({ n: "five" });
    expect(reply).toMatchObject({ kind: "failed", error: { name: "PreflightFailed", details: { item: "inputs" } } });
    expect(h.types(reply.run)).toEqual(["run_started", "run_failed"]);
  });

  it("runs a step only when `when` is exactly true", async () => {
    const h = harness(`stepgate: "1"
id: maybe
inputs: { type: object }
steps:
  - id: truthy
    when: { var: inputs.flag }
    instructions: Truthy.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
  - id: last
    instructions: Last.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`);
    expect(await h.start({ flag: 1 })).toMatchObject({ step: { step: "last" } });
    expect(await h.start({ flag: true })).toMatchObject({ step: { step: "truthy" } });
  });
});

describe("computed values JSON cannot hold", () => {
  const mechanical = `stepgate: "1"
id: nan
inputs: { type: object }
steps:
  - id: sum
    do: { output: { total: { "+": ["abc"] }, ratio: { "/": [1, 0] } } }
    produces: { type: object, required: [total], properties: { total: { type: number } } }
  - id: write
    instructions: Write.
    produces: { type: object }
    gates: [{ id: any, message: always, predicate: true }]
`;
  const derived = `stepgate: "1"
id: nan-derived
inputs: { type: object }
steps:
  - id: write
    instructions: Write a label.
    derive: { share: { "*": [{ var: output.label }, 2] } }
    produces: { type: object, required: [label, share], properties: { label: { type: string }, share: { type: number } } }
    gates: [{ id: any, message: always, predicate: true }]
`;

  it("become null in a mechanical step's output, so produces fails the run with a diagnosis, not an internal error", async () => {
    const h = harness(mechanical, fakeToolbox({}));
    const start = await h.start();
    expect(start).toMatchObject({ kind: "failed", error: { name: "GateFailed" } });
    expect(JSON.stringify(start)).toContain("total");
    expect(h.types(start.run)).toContain("computed");
  });

  it("become null in a derived field, so produces fails the attempt naming the field", async () => {
    const h = harness(derived, fakeToolbox({}));
    const start = await h.start();
    const reply = await h.registry.submit(start.run, h.session, { label: "abc" });
    expect(reply).toMatchObject({ kind: "failed", error: { name: "GateFailed", failures: [{ gate: "produces", diagnosis: "output.share must be number; got null" }] } });
  });
});
