// What a RunObserver is told (the seam --record-cases, --test and tracing
// share): each phase the run does on its behalf, run inside `around`;
// which gates passed and failed in each attempt; the error type at the end;
// and with several observers, each in turn, the first outermost.
import { describe, expect, it } from "vitest";
import type { Approver } from "../../src/engine/context.js";
import { allObservers, type RunObserver, type RunPhase } from "../../src/engine/observer.js";
import { fakeToolbox, harness } from "./harness.js";

const stepfile = `stepgate: "1"
id: watched
inputs: { type: object }
tools:
  api:
    openapi:
      server: https://api.example
      document: { openapi: 3.1.0, info: { title: t, version: "1" }, paths: { /x: { get: { operationId: get } } } }
    exposes: [get]
  check: { verifier: { url: "https://verify.example/" } }
steps:
  - id: s
    instructions: Get x.
    tools: [get]
    retries: 1
    produces: { type: object, required: [x], properties: { x: { type: number } } }
    gates:
      - { id: one, message: x must be 1, predicate: { "==": [{ var: output.x }, 1] } }
      - { id: checked, http: { tool: check } }
      - { id: person, approve: { message: OK? } }
`;

const asks: Approver = { kind: "ask", approve: async () => ({ approved: true }) };

function recording(name: string, seen: string[]): RunObserver {
  return {
    stepStarted: (step) => seen.push(`${name} step ${step}`),
    attempt: (a) => seen.push(`${name} attempt ${a.step} failed [${a.failures.map((f) => f.gate).join(",")}] passed [${a.passed.join(",")}]`),
    ended: (state, error) => seen.push(`${name} ended ${state}${error ? ` ${error}` : ""}`),
    around: async <T>(phase: RunPhase, work: () => Promise<T>) => {
      seen.push(`${name} begin ${phase.kind}${"gate" in phase ? ` ${phase.gate}` : "operation" in phase ? ` ${phase.operation}` : ""}`);
      const value = await work();
      seen.push(`${name} end ${phase.kind}`);
      return value;
    },
    approvalWaiting: (step, gates) => seen.push(`${name} waiting ${step} ${gates.join(",")}`),
  };
}

function watchedRun(observe: () => RunObserver | undefined) {
  const toolbox = { ...fakeToolbox({ get: () => ({ result: { x: 1 } }) }), verify: async () => ({ pass: true as const }) };
  return harness(stepfile, toolbox, undefined, undefined, { observe });
}

describe("RunObserver", () => {
  it("wraps preflight, calls, verifiers and a person asked within the call, and tells each attempt's verdicts and the end", async () => {
    const seen: string[] = [];
    const h = watchedRun(() => recording("a", seen));
    const { run } = await h.registry.start(h.stepfile, {}, h.session, asks);
    await h.registry.call(run, h.session, "get", {});
    await h.registry.submit(run, h.session, { x: 2 });
    const done = await h.registry.submit(run, h.session, { x: 1 });
    expect(done.kind).toBe("finished");
    expect(seen).toEqual([
      "a begin preflight",
      "a end preflight",
      "a step s",
      "a begin call get",
      "a end call",
      "a begin verifier checked",
      "a end verifier",
      "a attempt s failed [one] passed [checked]",
      "a begin verifier checked",
      "a end verifier",
      "a begin approval person",
      "a end approval",
      "a attempt s failed [] passed [one,checked,person]",
      "a ended finished",
    ]);
  });

  it("says a person is waited for between calls, and the error type of a failed run", async () => {
    const seen: string[] = [];
    const h = watchedRun(() => recording("a", seen));
    const { run } = await h.registry.start(h.stepfile, {}, h.session, { kind: "between-calls" });
    const asked = await h.registry.submit(run, h.session, { x: 1 });
    if (asked.kind !== "approval") throw new Error(`expected an approval reply, got ${asked.kind}`);
    expect(seen).toContain("a waiting s person");
    const declined = await h.registry.submit(run, h.session, { x: 1 }, { pending: asked.pending, answers: { person: { approved: false, reason: "no" } } });
    expect(declined.kind).toBe("retry");
    expect(seen).toContain("a attempt s failed [person] passed [one,checked]");
    const failed = await h.registry.submit(run, h.session, { x: 5 });
    expect(failed.kind).toBe("failed");
    expect(seen.at(-1)).toBe("a ended failed GateFailed");
  });

  it("tells several observers everything, the first one's around outermost", async () => {
    const seen: string[] = [];
    const h = watchedRun(() => allObservers([recording("a", seen), undefined, recording("b", seen)]));
    await h.registry.start(h.stepfile, {}, h.session, asks);
    expect(seen.slice(0, 5)).toEqual(["a begin preflight", "b begin preflight", "b end preflight", "a end preflight", "a step s"]);
    expect(allObservers([undefined])).toBeUndefined();
  });
});
