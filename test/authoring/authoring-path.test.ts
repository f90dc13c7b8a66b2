// The whole authoring path an agent limited to the MCP tools takes, through
// the built CLI over stdio with the SDK's client, against a real billing API
// on loopback that the operator granted with --draft-host: guide, examples,
// outline, inspect (the document given inline), validate (a warning, then
// fixed), try to finished (with progress for a client that asks), and
// stepgate_test on the draft's cases.
import { afterEach, describe, expect, it } from "vitest";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

type Result = { content: Array<{ type: string; text: string }>; structuredContent: Record<string, unknown>; isError?: boolean };

let stepgate: SpawnedStepgate | undefined;
let api: ApiFixture | undefined;
afterEach(async () => {
  await stepgate?.close();
  await api?.close();
});

const DOCUMENT = `openapi: 3.1.0
info: { title: billing, version: "1" }
paths:
  /invoices:
    get:
      operationId: listInvoices
      responses:
        "200":
          description: the open invoices
          content: { application/json: { schema: { type: object, properties: { invoices: { type: array, items: { type: object, properties: { id: { type: string }, amount: { type: number } } } } } } } }
`;

const PROCEDURE = `# Reconcile invoices

1. Fetch the open invoices from the billing API.
2. Reconcile them, listing each invoice once. The total MUST equal the sum of the amounts.
`;

const draft = (origin: string, totalPath: string) => `stepgate: "1"
id: reconcile-invoices
description: Reconcile the open invoices from the billing API.
inputs: { type: object }
tools:
  billing:
    openapi:
      server: "${origin}"
      document:
${DOCUMENT.split("\n").map((l) => `        ${l}`).join("\n")}
    exposes: [listInvoices]
steps:
  - id: fetch-open-invoices
    do:
      calls: [{ id: fetch, operation: listInvoices, arguments: {} }]
      output: { invoices: { var: responses.fetch.invoices } }
    produces: { type: object, properties: { invoices: { type: array, items: { type: object, properties: { id: { type: string }, amount: { type: number } } } } } }
  - id: reconcile
    instructions: "Reconcile these invoices: {{steps.fetch-open-invoices.invoices}}"
    retries: 1
    produces: { type: object, required: [ids, total], properties: { ids: { type: array, items: { type: string } }, total: { type: number } } }
    gates:
      - id: each-invoice-once
        message: list each invoice exactly once
        predicate: { "==": [{ length: { var: output.ids } }, { length: { unique: { var: output.ids } } }] }
      - id: the-total-must-equal-the-sum
        message: the total must equal the sum of the amounts
        predicate: { "==": [{ var: ${totalPath} }, { reduce: [{ var: steps.fetch-open-invoices.invoices }, { "+": [{ var: accumulator }, { var: current.amount }] }, 0] }] }
`;

const CASES = `cases:
  - name: a wrong total fails, the right one passes
    steps:
      - step: fetch-open-invoices
        calls: [{ tool: listInvoices, result: { invoices: [{ id: A-1, amount: 10 }, { id: A-2, amount: 5 }] } }]
        output: { invoices: [{ id: A-1, amount: 10 }, { id: A-2, amount: 5 }] }
        expect: pass
      - step: reconcile
        output: { ids: [A-1, A-2], total: 12 }
        expect: { fail: [the-total-must-equal-the-sum] }
      - step: reconcile
        output: { ids: [A-1, A-2], total: 15 }
        expect: pass
`;

describe("the whole authoring path over MCP, against a loopback API granted with --draft-host", () => {
  it("goes from a prose procedure to a draft that stepgate_try finishes and stepgate_test passes", async () => {
    api = await startApiFixture([{ method: "GET", path: "/invoices", answers: [{ json: { invoices: [{ id: "A-1", amount: 10 }, { id: "A-2", amount: 5 }] } }] }]);
    stepgate = await spawnStepgate(["--draft-host", api.host]);
    const client = stepgate.client;
    const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;

    const guide = await call("stepgate_guide");
    expect(guide.content[0]!.text).toContain("## More, on request");
    expect(guide.content[0]!.text).toContain("--draft-host");

    const examples = await call("stepgate_examples");
    expect((examples.structuredContent.examples as unknown[]).length).toBeGreaterThan(0);

    const outlined = await call("stepgate_outline", { markdown: PROCEDURE });
    expect(outlined.content[0]!.text).toMatch(/tools:\n {2}api:/);
    expect(outlined.content[0]!.text).toContain("id: the-total-must-equal-the-sum\n");

    const inspected = await call("stepgate_inspect_api", { document: DOCUMENT });
    expect(inspected.isError).toBeFalsy();
    expect(inspected.structuredContent).toMatchObject({ kind: "openapi", operations: [{ operationId: "listInvoices", success: { status: "200" } }] });

    // A misspelled path validates with a warning naming its line and the right name.
    const misspelled = draft(api.origin, "output.totl");
    const warned = await call("stepgate_validate", { text: misspelled });
    expect(warned.structuredContent).toMatchObject({ valid: true, try: { accepted: true }, warnings: [{ message: expect.stringContaining("did you mean output.total?") }] });
    expect(warned.content[0]!.text).toMatch(/Warnings \(1;[\s\S]*line \d+:\d+ /);
    const text = draft(api.origin, "output.total");
    const clean = await call("stepgate_validate", { text });
    expect(clean.structuredContent).toMatchObject({ valid: true, try: { accepted: true, refusals: [] } });
    expect(clean.structuredContent.warnings).toBeUndefined();

    // The granted loopback API is really called; a wrong total is diagnosed, the right one finishes.
    // A client that sent a progressToken hears the draft run's preflight and calls, as for a served stepfile.
    const progress: string[] = [];
    const started = (await client.callTool({ name: "stepgate_try", arguments: { text, inputs: {} } }, { onprogress: (p) => void progress.push(p.message ?? "") })) as Result;
    expect(progress).toEqual(["preflight: tool billing ready (1 of 1)", "step fetch-open-invoices: call fetch (listInvoices) 1 of 1"]);
    expect(started.structuredContent).toMatchObject({ state: "running", step: { step: "reconcile" }, completed: ["fetch-open-invoices"] });
    expect(api.received.map((r) => r.path)).toEqual(["/invoices"]);
    const run = started.structuredContent.run as string;
    const wrong = await call("stepgate_submit", { run, output: { ids: ["A-1", "A-2"], total: 12 } });
    expect(wrong.content[0]!.text).toContain("the-total-must-equal-the-sum: the total must equal the sum of the amounts expected 15, got 12 (output.total)");
    const finished = await call("stepgate_submit", { run, output: { ids: ["A-1", "A-2"], total: 15 } });
    expect(finished.structuredContent).toMatchObject({ state: "finished", completed: [] });
    // An answer, not the field's documentation.
    expect(finished.content[0]!.text).toContain("finished.\nStepgate ran no step itself since your last call.\n");
    expect(finished.content[0]!.text).not.toContain("completed is empty");

    const tested = await call("stepgate_test", { text, cases: CASES });
    expect(tested.isError).toBeFalsy();
    expect(tested.structuredContent).toMatchObject({ ok: true, stepfile: "reconcile-invoices" });
    expect(tested.content[0]!.text).toContain("1 case: 1 agree, 0 differ");

    // Without the grant the same draft is refused, and the refusal says what to do instead.
    await stepgate.close();
    stepgate = await spawnStepgate([]);
    const refused = (await stepgate.client.callTool({ name: "stepgate_try", arguments: { text } })) as Result;
    expect(refused.content[0]!.text).toMatch(/^DraftRefused: .*--draft-host <host\[:port\]>/);
  }, 120_000);
});
