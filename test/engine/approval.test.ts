// Approve gates with an approver that asks between calls (the 2026-07-28
// style), through the engine alone: the checked output waits in the run,
// only the same call may bring the answers, and the ledger is the one a
// person asked within the call would leave.
import { describe, expect, it } from "vitest";
import type { ApprovalAnswer, Approver } from "../../src/engine/context.js";
import type { Reply } from "../../src/engine/replies.js";
import { harness } from "./harness.js";

const twoApprovals = `stepgate: "1"
id: sign
inputs: { type: object }
steps:
  - id: draft
    instructions: Draft.
    produces: { type: object, required: [text], properties: { text: { type: string } } }
    retries: 1
    gates:
      - { id: first, approve: { message: Editor? } }
      - { id: short, message: keep it short, predicate: { "<": [{ length: { var: output.text } }, 20] } }
      - { id: second, approve: { message: Lawyer? } }
`;

const betweenCalls: Approver = { kind: "between-calls" };
const yes: ApprovalAnswer = { approved: true };

async function started(idleMs = 60_000) {
  const h = harness(twoApprovals, undefined, undefined, idleMs);
  const start = await h.registry.start(h.stepfile, {}, h.session, betweenCalls);
  return { h, run: start.run };
}

function pendingOf(reply: Reply): string {
  if (reply.kind !== "approval") throw new Error(`expected an approval reply, got ${reply.kind}`);
  return reply.pending;
}

describe("approvals asked between calls", () => {
  it("asks only once the other gates pass, about every approval, with the checked output", async () => {
    const { h, run } = await started();
    expect(await h.registry.submit(run, h.session, { text: "far too long for the short gate" })).toMatchObject({ kind: "retry", failures: [{ gate: "short" }] });
    const asked = await h.registry.submit(run, h.session, { text: "ok" });
    expect(asked).toMatchObject({
      kind: "approval",
      state: "running",
      step: "draft",
      requests: [
        { gate: "first", message: "Editor?", output: { text: "ok" } },
        { gate: "second", message: "Lawyer?", output: { text: "ok" } },
      ],
    });
  });

  it("applies answers only to the wait they name, asks again for the ones missing, then records every verdict at once", async () => {
    const { h, run } = await started();
    const pending = pendingOf(await h.registry.submit(run, h.session, { text: "ok" }));
    // Answers for another wait change nothing.
    expect(await h.registry.submit(run, h.session, { text: "ok" }, { pending: "stale", answers: { first: yes, second: yes } })).toMatchObject({ kind: "approval", requests: [{ gate: "first" }, { gate: "second" }] });
    expect(await h.registry.submit(run, h.session, { text: "ok" }, { pending, answers: { first: yes } })).toMatchObject({ kind: "approval", pending, requests: [{ gate: "second" }] });
    expect(h.types(run)).toEqual(["run_started", "step_started", "submit"]);
    const reply = await h.registry.submit(run, h.session, { text: "ok" }, { pending, answers: { second: { approved: false, reason: "not yet" } } });
    expect(reply).toMatchObject({ kind: "retry", failures: [{ gate: "second", diagnosis: "declined: not yet" }], attemptsLeft: 1 });
    const gates = h.records(run).filter((r) => r.type === "gate").map((r) => [r.gate, r.verdict]);
    expect(gates).toEqual([
      ["short", "pass"],
      ["first", "pass"],
      ["second", "fail"],
    ]);
    expect(h.types(run)).toEqual(["run_started", "step_started", "submit", "gate", "gate", "gate"]);
  });

  it("refuses another output and any call while the output waits, and keeps the wait", async () => {
    const { h, run } = await started();
    const pending = pendingOf(await h.registry.submit(run, h.session, { text: "ok" }));
    const swapped = await h.registry.submit(run, h.session, { text: "other" }, { pending, answers: { first: yes, second: yes } });
    expect(swapped).toMatchObject({ kind: "waiting", state: "running", step: "draft", text: expect.stringContaining("cannot be changed while it waits") });
    expect(await h.registry.call(run, h.session, "anything", {})).toMatchObject({ kind: "call", isError: true, text: expect.stringContaining("waiting for a person's approval") });
    expect(await h.registry.submit(run, h.session, { text: "ok" }, { pending, answers: { first: yes, second: yes } })).toMatchObject({ kind: "finished", outputs: { draft: { text: "ok" } } });
    expect(h.records(run).filter((r) => r.type === "submit")).toHaveLength(1);
  });

  it("leaves the same ledger as a person asked within the call", async () => {
    const { h, run } = await started();
    const pending = pendingOf(await h.registry.submit(run, h.session, { text: "ok" }));
    await h.registry.submit(run, h.session, { text: "ok" }, { pending, answers: { first: yes, second: yes } });
    const asking = harness(twoApprovals);
    const within = await asking.registry.start(asking.stepfile, {}, asking.session, { kind: "ask", approve: async () => yes });
    await asking.registry.submit(within.run, asking.session, { text: "ok" });
    const strip = (records: Array<Record<string, unknown>>) => records.map(({ run: _run, prev: _prev, ...rest }) => rest);
    expect(strip(h.records(run))).toEqual(strip(asking.records(within.run)));
  });

  it("abandons a run whose client does not come back within the idle time", async () => {
    const { h, run } = await started(50);
    pendingOf(await h.registry.submit(run, h.session, { text: "ok" }));
    await new Promise((done) => setTimeout(done, 150));
    expect(h.types(run).at(-1)).toBe("run_abandoned");
    expect(await h.registry.submit(run, h.session, { text: "ok" })).toMatchObject({ kind: "failed", error: { name: "RunNotActive" } });
  });
});
