// Before a person approves an output, the mechanical calls after it whose
// arguments depend only on data the run holds are computed and checked, so
// nobody approves a write the operation's schema refuses. Through the
// engine with a toolbox whose argument checks are the real ones
// (argumentProblems over an ajv validator), and a person who says yes.
import { describe, expect, it } from "vitest";
import type { Approver } from "../../src/engine/context.js";
import { argumentProblems, remoteSchemas } from "../../src/tools/toolbox.js";
import { fakeToolbox, harness } from "./harness.js";

const refundSchema = remoteSchemas.compile({
  type: "object",
  required: ["order_id", "amount_cents", "reason"],
  additionalProperties: false,
  properties: {
    order_id: { type: "string" },
    amount_cents: { type: "integer", minimum: 1, maximum: 100000 },
    reason: { type: "string", enum: ["out_of_stock", "damaged"] },
  },
});

const stepfile = (when = "") => `stepgate: "1"
id: refund
inputs: { type: object, required: [order_id], properties: { order_id: { type: string } } }
tools:
  shop: { mcp: { url: "http://127.0.0.1:1/mcp" }, exposes: [getOrder, createRefund] }
steps:
  - id: decide
    instructions: Decide the refund.
    retries: 1
    produces:
      type: object
      required: [amount_cents, reason]
      properties: { amount_cents: { type: integer }, reason: { type: string } }
    gates:
      - { id: positive, message: "refund something", predicate: { ">": [{ var: output.amount_cents }, 0] } }
      - { id: person, approve: { message: Refund this? } }
  - id: lookup
    do:
      calls: [{ id: order, operation: getOrder, arguments: { order_id: { var: inputs.order_id } } }]
      output: { status: { var: responses.order.status } }
    produces: { type: object }
  - id: create${when}
    do:
      calls:
        - id: refund
          operation: createRefund
          arguments: { order_id: { var: inputs.order_id }, amount_cents: { var: steps.decide.amount_cents }, reason: { var: steps.decide.reason } }
        - id: note
          operation: createRefund
          arguments: { order_id: { var: responses.refund.id }, amount_cents: 1, reason: nonsense }
      output: { id: { var: responses.refund.id } }
    produces: { type: object }
`;

function toolbox() {
  const tb = fakeToolbox({ getOrder: () => ({ result: { status: "paid" } }), createRefund: () => ({ result: { id: "r1" } }) });
  return { ...tb, checkArguments: (name: string, args: unknown) => (name === "createRefund" ? argumentProblems(refundSchema, args) : []) };
}

function approver() {
  const asked: string[] = [];
  const yes: Approver = { kind: "ask", approve: async (r) => (asked.push(r.gate), { approved: true }) };
  return { asked, yes };
}

describe("the check before a person approves", () => {
  it("fails the approve gate, without asking, when the output gives a later call arguments its schema refuses, naming the value and what is allowed", async () => {
    const h = harness(stepfile(), toolbox());
    const { asked, yes } = approver();
    const { run } = await h.registry.start(h.stepfile, { order_id: "o-1" }, h.session, yes);
    const reply = await h.registry.submit(run, h.session, { amount_cents: 500, reason: "oos" });
    expect(asked).toEqual([]);
    expect(reply).toMatchObject({ kind: "retry", failures: [{ gate: "person" }], attemptsLeft: 1 });
    const diagnosis = reply.kind === "retry" ? reply.failures[0]!.diagnosis : "";
    expect(diagnosis).toContain("step create's call refund (createRefund)");
    expect(diagnosis).toContain('arguments.reason must be one of "out_of_stock", "damaged"; got "oos"');
    // The call that reads a response is not known yet, so its refused literal is not reported now.
    expect(diagnosis).not.toContain("nonsense");
    const bigger = await h.registry.submit(run, h.session, { amount_cents: 500000, reason: "damaged" });
    expect(bigger.kind === "failed" && bigger.error.message).toContain("arguments.amount_cents must be <= 100000; got 500000");
    expect(asked).toEqual([]);
  });

  it("asks when the arguments it can compute are valid, and the run reaches the calls", async () => {
    const tb = toolbox();
    const h = harness(stepfile(), tb);
    const { asked, yes } = approver();
    const { run } = await h.registry.start(h.stepfile, { order_id: "o-1" }, h.session, yes);
    const reply = await h.registry.submit(run, h.session, { amount_cents: 500, reason: "damaged" });
    expect(asked).toEqual(["person"]);
    // The second call's literal reason is refused only at its turn, after the approval: it reads a response.
    expect(reply).toMatchObject({ kind: "failed", error: { name: "CallArgumentsInvalid" } });
    expect(reply.kind === "failed" && reply.error.message).toContain('call note (createRefund): computed arguments are invalid: arguments.reason must be one of "out_of_stock", "damaged"; got "nonsense"');
    expect(tb.made.map(([name]) => name)).toEqual(["getOrder", "createRefund"]);
  });

  it("leaves a later step whose when is false, or cannot be told yet, to its turn", async () => {
    for (const when of [`\n    when: { "==": [{ var: inputs.order_id }, never] }`, `\n    when: { "==": [{ var: steps.lookup.status }, paid] }`]) {
      const h = harness(stepfile(when), toolbox());
      const { asked, yes } = approver();
      const { run } = await h.registry.start(h.stepfile, { order_id: "o-1" }, h.session, yes);
      await h.registry.submit(run, h.session, { amount_cents: 500, reason: "oos" });
      expect(asked).toEqual(["person"]);
    }
  });

  it("asks nobody between calls either: the submission fails with the reason", async () => {
    const h = harness(stepfile(), toolbox());
    const { run } = await h.registry.start(h.stepfile, { order_id: "o-1" }, h.session, { kind: "between-calls" });
    const reply = await h.registry.submit(run, h.session, { amount_cents: 500, reason: "oos" });
    expect(reply).toMatchObject({ kind: "retry", failures: [{ gate: "person", diagnosis: expect.stringContaining("not asked") }] });
  });
});
