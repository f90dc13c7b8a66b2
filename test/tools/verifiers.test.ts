// `http` gates through the built CLI against a verifier on loopback: what a
// verifier is sent, which answers pass or fail a gate, and that every other
// answer stops the run as an outage (format section 7).
import { afterEach, describe, expect, it } from "vitest";
import { cleanUp, json, serve, startRun, structured, text, type TestServer } from "./cli-run.js";

afterEach(cleanUp);

type Answer = (res: import("node:http").ServerResponse) => void;

/** An API with one item, and a verifier whose answer each test chooses. */
async function setUp(answer: Answer) {
  const api = await serve((_req, _body, res) => json(res, 200, { name: "Ada" }));
  const verifier = await serve((_req, _body, res) => answer(res));
  const stepfile = {
    stepgate: "1",
    id: "verified",
    inputs: { type: "object", required: ["who"], properties: { who: { type: "string" } } },
    credentials: { "verify-key": { kind: "bearer", hosts: [verifier.host], description: "Lets the verifier know us." } },
    tools: {
      api: { openapi: { server: api.origin, document: { openapi: "3.1.0", info: { title: "Items", version: "1" }, paths: { "/item": { get: { operationId: "getItem" } } } } }, exposes: ["getItem"] },
      // Same host as `keyed`: the credential must follow the tool that names it, not the host.
      plain: { verifier: { url: `${verifier.origin}/plain` } },
      keyed: { verifier: { url: `${verifier.origin}/keyed` }, credential: "verify-key" },
    },
    steps: [
      { id: "fetch", tools: ["getItem"], instructions: "Fetch the item.", produces: { type: "object" }, gates: [{ id: "any", schema: { type: "object" } }] },
      {
        id: "check",
        tools: ["getItem"],
        instructions: "Fetch it again and report its name.",
        produces: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        // A `let` the verifier must not be sent.
        let: { shout: { cat: [{ var: "output.name" }, "!"] } },
        gates: [
          { id: "plain-check", http: { tool: "plain" } },
          { id: "keyed-check", http: { tool: "keyed" } },
        ],
        retries: 1,
      },
    ],
  };
  const run = await startRun(stepfile, { who: "Ada" }, { env: { VERIFY_KEY_API_KEY: "verifier-secret-1" } });
  expect(structured(await run.call("getItem")).state).toBe("running");
  expect(structured(await run.submit({ seen: true })).step?.step).toBe("check");
  expect(structured(await run.call("getItem")).state).toBe("running");
  return { run, verifier };
}

function bodies(verifier: TestServer) {
  return verifier.received.map((r) => ({ path: r.path, body: JSON.parse(r.body) as unknown, authorization: r.headers.authorization }));
}

describe("http gates", () => {
  it("pass on { pass: true }, sent exactly { stepfile, step, gate, inputs, steps, output, calls }, the credential only to the tool that names it", async () => {
    const { run, verifier } = await setUp((res) => json(res, 200, { pass: true }));
    const done = await run.submit({ name: "Ada" });
    expect(structured(done).state).toBe("finished");
    const payload = (gate: string) => ({
      stepfile: "verified",
      step: "check",
      gate,
      inputs: { who: "Ada" },
      steps: { fetch: { seen: true } },
      output: { name: "Ada" },
      // Only this step's calls: the first step's call is not evidence here.
      calls: [{ tool: "getItem", arguments: {}, result: { name: "Ada" }, is_error: false }],
    });
    expect(bodies(verifier)).toEqual([
      { path: "/plain", body: payload("plain-check"), authorization: undefined },
      { path: "/keyed", body: payload("keyed-check"), authorization: "Bearer verifier-secret-1" },
    ]);
    expect(verifier.received.every((r) => r.method === "POST" && r.headers["content-type"] === "application/json")).toBe(true);
  });

  it("fail on { pass: false, message } with that message as the diagnosis", async () => {
    const { run } = await setUp((res) => json(res, 200, { pass: false, message: "the name is not on the register" }));
    const retry = await run.submit({ name: "Ada" });
    expect(structured(retry).state).toBe("running");
    expect(structured(retry).failures).toEqual([
      { gate: "plain-check", diagnosis: "the name is not on the register" },
      { gate: "keyed-check", diagnosis: "the name is not on the register" },
    ]);
    expect(text(retry)).toContain("the name is not on the register");
    const { ledger } = await run.finish();
    expect(ledger.filter((r) => r.type === "gate" && r.step === "check").map((r) => [r.gate, r.verdict])).toEqual([
      ["plain-check", "fail"],
      ["keyed-check", "fail"],
    ]);
  });

  const outages: Array<[string, Answer]> = [
    ["a 500", (res) => json(res, 500, { error: "down" }, { "retry-after": "0" })],
    ["a body that is not JSON", (res) => res.writeHead(200, { "content-type": "text/plain" }).end("pass")],
    ['{ pass: "yes" }', (res) => json(res, 200, { pass: "yes" })],
    ["{ pass: false } without a message", (res) => json(res, 200, { pass: false })],
  ];
  it.each(outages)("stop the run on %s, asked once", async (_label, answer) => {
    const { run, verifier } = await setUp(answer);
    const reply = await run.submit({ name: "Ada" });
    expect(structured(reply)).toMatchObject({ state: "failed", error: "ToolCallFailed" });
    const { ledger } = await run.finish();
    expect(ledger.at(-1)).toMatchObject({ type: "run_failed", error: "ToolCallFailed", step: "check" });
    // The first verifier's outage stops the run: the second is never asked.
    expect(verifier.received.every((r) => r.path === "/plain")).toBe(true);
    // A verifier's POST follows the seed: a 5xx is not retried (even with Retry-After), it stops the run at once.
    expect(verifier.received).toHaveLength(1);
    expect(ledger.filter((r) => r.type === "retry")).toEqual([]);
  });

  it("retry a 429 like any POST, each retry recorded against the step, then pass", async () => {
    let limited = false;
    const { run, verifier } = await setUp((res) => {
      if (limited) return json(res, 200, { pass: true });
      limited = true;
      json(res, 429, { error: "slow down" }, { "retry-after": "0" });
    });
    expect(structured(await run.submit({ name: "Ada" })).state).toBe("finished");
    const { ledger } = await run.finish();
    expect(verifier.received.map((r) => r.path)).toEqual(["/plain", "/plain", "/keyed"]);
    expect(ledger.filter((r) => r.type === "retry").map((r) => [r.step, r.operation, r.attempt, r.status])).toEqual([["check", "plain", 1, 429]]);
  });
});
