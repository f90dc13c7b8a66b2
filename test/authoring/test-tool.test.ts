// stepgate_test: inline offline cases against a draft or a served stepfile,
// played by the same code as `stepgate --test` (compared here with
// formatReport of runCases on the same files).
import { describe, expect, it } from "vitest";
import { Authoring } from "../../src/authoring/index.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import { DEFAULT_LIMITS } from "../../src/cli/options.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { formatReport, parseCases, runCases } from "../../src/offline/index.js";
import { DEFAULT_MUTANTS_PER_ENTRY, DEFAULT_SEED, formatMutationReport, mutateCases, type MutationReport } from "../../src/offline/mutate/index.js";
import { newSession } from "../../src/session.js";

const draft = `stepgate: "1"
id: invoices
inputs: { type: object, properties: { expected: { type: integer } } }
tools:
  billing:
    openapi:
      server: "https://billing.example"
      document:
        openapi: 3.1.0
        info: { title: billing, version: "1" }
        paths: { /invoices: { get: { operationId: listInvoices, responses: { "200": { description: ok } } } } }
    exposes: [listInvoices]
steps:
  - id: list
    instructions: List the invoices.
    retries: 1
    tools: [listInvoices]
    produces: { type: object, required: [ids], properties: { ids: { type: array, items: { type: string } } } }
    gates:
      - id: real-invoices
        message: list only invoices listInvoices returned
        predicate: { subset: [{ var: output.ids }, { map: [{ results: [listInvoices, invoices] }, { var: id }] }] }
`;

const cases = `cases:
  - name: a good list passes, a made-up id fails
    steps:
      - step: list
        calls: [{ tool: listInvoices, result: { invoices: [{ id: A-1 }, { id: A-2 }] } }]
        output: { ids: [A-1, A-9] }
        expect: { fail: [real-invoices] }
      - step: list
        calls: [{ tool: listInvoices, result: { invoices: [{ id: A-1 }, { id: A-2 }] } }]
        output: { ids: [A-1, A-2] }
        expect: pass
`;

function setup(served?: string) {
  const registry = new RunRegistry({ limits: DEFAULT_LIMITS, ledger: chainedLedgers(memorySinks()), newRunId: () => "r", openToolbox: () => Promise.reject(new Error("no toolbox")) }, 60_000);
  const loaded = served === undefined ? undefined : loadStepfileText(served, "served.stepfile.yaml");
  const authoring = new Authoring({
    catalog: () => [],
    grants: { credentials: [], settings: [] },
    env: {},
    requests: { userAgent: "t", timeoutMs: 1000, maxBytes: 1_000_000 },
    served: (id) => (loaded?.doc.id === id ? loaded : undefined),
  });
  return { authoring, caller: { registry, session: newSession(), approver: () => undefined } };
}

describe("stepgate_test", () => {
  it("plays a draft's inline cases and gives the same report as stepgate --test", async () => {
    const { authoring, caller } = setup();
    const answer = await authoring.call("stepgate_test", { text: draft, cases }, caller);
    const loaded = loadStepfileText(draft, "draft");
    const expected = formatReport(await runCases(loaded, parseCases(cases, "(cases)", loaded), DEFAULT_LIMITS));
    expect(answer).toMatchObject({ kind: "data", text: expected, data: { ok: true, stepfile: "invoices", cases: [{ ok: true, entries: [{ index: 1, problems: [] }, { index: 2, problems: [] }] }] } });
    expect(expected).toContain("1 case: 1 agree, 0 differ");
  });

  it("reports a verdict that differs, with the engine's diagnosis", async () => {
    const { authoring, caller } = setup();
    const wrong = cases.replace("expect: { fail: [real-invoices] }", "expect: pass");
    const answer = await authoring.call("stepgate_test", { text: draft, cases: wrong }, caller);
    expect(answer).toMatchObject({ kind: "data", data: { ok: false }, text: expect.stringContaining('real-invoices: list only invoices listInvoices returned ["A-9"]') });
    expect((answer as { text: string }).text).toContain("1 case: 0 agree, 1 differ");
  });

  it("plays cases against a served stepfile by its tool name", async () => {
    const { authoring, caller } = setup(draft);
    await expect(authoring.call("stepgate_test", { stepfile: "invoices", cases }, caller)).resolves.toMatchObject({ data: { ok: true } });
    await expect(authoring.call("stepgate_test", { stepfile: "nope", cases }, caller)).resolves.toMatchObject({ kind: "usage", text: expect.stringContaining("nope is not a stepfile this server serves") });
  });

  it("names a cases file's problem with its line:column, and a bad draft as StepfileInvalid", async () => {
    const { authoring, caller } = setup();
    const answer = await authoring.call("stepgate_test", { text: draft, cases: cases.replace("- step: list\n        calls", "- step: lst\n        calls") }, caller);
    expect(answer).toMatchObject({ kind: "usage", text: expect.stringMatching(/^CasesInvalid: [\s\S]*\(cases\):4:15 .*invoices has no step lst/) });
    await expect(authoring.call("stepgate_test", { text: "stepgate: '1'\nid: x\n", cases }, caller)).rejects.toMatchObject({ name: "StepfileInvalid" });
    await expect(authoring.call("stepgate_test", { cases }, caller)).resolves.toMatchObject({ kind: "usage", text: expect.stringContaining("exactly one of text") });
  });

  it("with mutate: true, shows the wrong outputs the gates let through, as stepgate --test --mutate does", async () => {
    const { authoring, caller } = setup();
    const answer = (await authoring.call("stepgate_test", { text: draft, cases, mutate: true }, caller)) as unknown as { kind: string; text: string; data: { ok: boolean; mutation: MutationReport } };
    const loaded = loadStepfileText(draft, "draft");
    const expected = await mutateCases(loaded, parseCases(cases, "(cases)", loaded), DEFAULT_LIMITS, { seed: DEFAULT_SEED, perEntry: DEFAULT_MUTANTS_PER_ENTRY }, "draft");
    expect(answer.kind).toBe("data");
    expect(answer.data.ok).toBe(true);
    expect(answer.data.mutation).toEqual(expected);
    expect(answer.text).toContain(formatMutationReport(expected));
    // A subset gate alone lets an invoice through twice, or one left out.
    const kinds = new Set(answer.data.mutation.survivors.map((s) => s.mutation));
    expect(kinds.has("duplicate-item") || kinds.has("drop-item")).toBe(true);
    // The gate that checks every invoice is listed once kills them.
    const stronger = `${draft}      - id: every-invoice-once
        message: list every invoice listInvoices returned, each once
        predicate:
          and:
            - { "==": [{ length: { unique: { var: output.ids } } }, { length: { var: output.ids } }] }
            - { "==": [{ length: { var: output.ids } }, { length: { results: [listInvoices, invoices] } }] }
`;
    const strong = (await authoring.call("stepgate_test", { text: stronger, cases, mutate: true }, caller)) as unknown as { data: { mutation: MutationReport } };
    expect(strong.data.mutation.survivors.filter((s) => s.mutation === "duplicate-item" || s.mutation === "drop-item")).toEqual([]);
  });

  it("with mutate, lists accepted survivors apart, and refuses mutation arguments without it", async () => {
    const { authoring, caller } = setup();
    const accepted = "accept:\n  - step: list\n    mutation: duplicate-item\n    reason: the billing system ignores a repeated id\n";
    const answer = (await authoring.call("stepgate_test", { text: draft, cases, mutate: true, accepted }, caller)) as unknown as { data: { mutation: MutationReport } };
    expect(answer.data.mutation.accepted.map((a) => a.reason)).toContain("the billing system ignores a repeated id");
    expect(answer.data.mutation.survivors.some((s) => s.mutation === "duplicate-item")).toBe(false);
    await expect(authoring.call("stepgate_test", { text: draft, cases, mutants: 3 }, caller)).resolves.toMatchObject({ kind: "usage", text: "stepgate_test: mutants is only for mutate: true" });
    await expect(authoring.call("stepgate_test", { text: draft, cases, mutate: true, mutants: 0 }, caller)).resolves.toMatchObject({ kind: "usage", text: expect.stringContaining("mutants must be a whole number of at least 1") });
    await expect(authoring.call("stepgate_test", { text: draft, cases, mutate: true, accepted: "accept:\n  - step: lst\n    mutation: drop-item\n    reason: x\n" }, caller)).resolves.toMatchObject({
      kind: "usage",
      text: expect.stringMatching(/^MutantsFileInvalid: [\s\S]*\(accepted\):2:11 accept\[0\]\.step: invoices has no step lst/),
    });
  });
});
