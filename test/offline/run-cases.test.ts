// runCases through the real engine with inline stepfiles: how gates that
// cannot be checked offline take their recorded verdict, how mechanical
// steps are replayed rather than trusted, and how evidence accumulates
// across attempts.
import { describe, expect, it } from "vitest";
import { loadStepfileText } from "../../src/loader/load.js";
import { formatReport, parseCases, runCases, type CasesReport } from "../../src/offline/index.js";

const limits = { callsPerStep: 100, toolResultChars: 20_000 };

const stepfile = loadStepfileText(
  `stepgate: "1"
id: shelf
inputs: { type: object, required: [shelf], properties: { shelf: { type: string } } }
tools:
  books:
    openapi:
      server: http://127.0.0.1:1
      document:
        openapi: 3.1.0
        paths:
          /shelves/{shelf}:
            get:
              operationId: listShelf
              parameters: [{ name: shelf, in: path, required: true, schema: { type: string } }]
              responses: { "200": { description: ok } }
          /books/{id}:
            get:
              operationId: getBook
              parameters: [{ name: id, in: path, required: true, schema: { type: string, maxLength: 5 } }]
              responses: { "200": { description: ok } }
    exposes: [listShelf, getBook]
  policy:
    verifier: { url: "http://127.0.0.1:1/verify" }
steps:
  - id: fetch
    do:
      calls:
        - { id: shelf, operation: listShelf, arguments: { shelf: { var: inputs.shelf } } }
        - id: books
          operation: getBook
          each: { var: responses.shelf.ids }
          arguments: { id: { var: item } }
          accept: [404]
      output: { titles: { map: [{ var: responses.books }, { var: title }] } }
    produces: { type: object }
  - id: pick
    tools: [getBook]
    instructions: Pick one.
    produces: { type: object, required: [title], properties: { title: { type: string } } }
    retries: 2
    gates:
      - id: fetched
        message: "pick a title you fetched"
        predicate: { in: [{ var: output.title }, { results: [getBook, title] }] }
      - id: policy
        http: { tool: policy }
      - id: sign-off
        approve: { message: ok? }
`,
  "shelf.stepfile.yaml",
);

const fetchEntry = `      - step: fetch
        calls:
          - { tool: listShelf, arguments: { shelf: s1 }, result: { ids: [b1, b2] } }
          - { tool: getBook, arguments: { id: b1 }, result: { title: Emma } }
          - { tool: getBook, arguments: { id: b2 }, result: { error: gone }, is_error: true, status: 404 }
        output: { titles: [Emma, null] }
        expect: pass
`;

async function play(entries: string): Promise<CasesReport> {
  const text = `cases:\n  - name: one\n    inputs: { shelf: s1 }\n    steps:\n${entries}`;
  return runCases(stepfile, parseCases(text, "shelf.cases.yaml", stepfile), limits);
}

describe("runCases", () => {
  it("replays calls as evidence that accumulates across attempts, and names the gates it skips", async () => {
    const report = await play(`${fetchEntry}      - step: pick
        calls: [{ tool: getBook, arguments: { id: b9 }, result: { title: Persuasion } }]
        output: { title: Dune }
        expect: { fail: [fetched] }
      - step: pick
        output: { title: Persuasion }
        expect: pass
`);
    expect(report.ok).toBe(true);
    const [fetch, first, second] = report.cases[0]!.entries;
    expect(fetch).toMatchObject({ step: "fetch", problems: [], skipped: [] });
    expect(first).toMatchObject({ problems: [], skipped: ["policy (http)", "sign-off (approve)"] });
    expect(second!.failures).toEqual([]);
    expect(formatReport(report)).toContain("skipped offline: policy (http), sign-off (approve)");
  });

  it("takes an http or approve gate listed in expect.fail as failed, and follows the recorded retries", async () => {
    const report = await play(`${fetchEntry}      - step: pick
        calls: [{ tool: getBook, arguments: { id: b1 }, result: { title: Emma } }]
        output: { title: Emma }
        expect: { fail: [sign-off] }
      - step: pick
        output: { title: Emma }
        expect: { fail: [policy] }
      - step: pick
        output: { title: Emma }
        expect: pass
`);
    expect(formatReport(report)).toContain("1 case: 1 agree, 0 differ");
    const [, declined, refused, passed] = report.cases[0]!.entries;
    expect(declined!.failures).toEqual([{ gate: "sign-off", diagnosis: expect.stringMatching(/^declined: the cases file records this approval as declined/) }]);
    // Approval is asked only once the other gates pass, offline as live.
    expect(refused!.failures).toEqual([{ gate: "policy", diagnosis: expect.stringMatching(/^the cases file records this gate as failed/) }]);
    expect(passed).toMatchObject({ failures: [], problems: [], skipped: ["policy (http)", "sign-off (approve)"] });
  });

  it("fails a recorded error status the call does not accept, as a live run does", async () => {
    const report = await play(fetchEntry.replace("status: 404", "status: 500"));
    expect(report.ok).toBe(false);
    expect(report.cases[0]!.entries[0]!.problems[0]).toMatch(/^ToolCallFailed: /);
  });

  it("refuses a mechanical entry whose calls are not the ones the templates compute", async () => {
    const report = await play(fetchEntry.replace("arguments: { id: b2 }", "arguments: { id: b3 }"));
    expect(report.cases[0]!.entries[0]!.problems).toEqual([
      'call 3 asked getBook with {"id":"b2"}, but the entry records getBook with {"id":"b3"}',
    ]);
  });

  it("refuses a recorded mechanical output the template does not compute, and recorded calls never made", async () => {
    const extra = "          - { tool: getBook, arguments: { id: b3 }, result: {} }\n";
    const report = await play(fetchEntry.replace("        output: { titles: [Emma, null] }", `${extra}        output: { titles: [Emma] }`));
    expect(report.cases[0]!.entries[0]!.problems).toEqual([
      'the step made fewer calls than recorded; not made: getBook with {"id":"b3"}',
      'the output template computes {"titles":["Emma",null]}, but the entry records {"titles":["Emma"]}',
    ]);
  });

  it("checks arguments against inline OpenAPI schemas offline", async () => {
    const report = await play(`${fetchEntry}      - step: pick
        calls: [{ tool: getBook, arguments: { id: toolong }, result: {} }]
        output: { title: x }
        expect: pass
`);
    expect(report.cases[0]!.entries[1]!.problems[0]).toContain("call 1 (getBook) did not reach the tool: Invalid arguments for getBook");
  });

  it("says where the run and the entries part ways", async () => {
    const report = await play(`      - step: pick
        output: { title: x }
        expect: pass
`);
    expect(report.cases[0]).toMatchObject({ ok: false, stopped: "entry 1 is for step pick, but the run reached mechanical step fetch" });
  });
});

describe("parseCases", () => {
  it("names the line of every problem", () => {
    const text = "cases:\n  - name: x\n    steps:\n      - step: pick\n        calls: [{ tool: listShelf, result: 1 }]\n        output: {}\n        expect: { fail: [nope] }\n";
    expect(() => parseCases(text, "x.cases.yaml", stepfile)).toThrow(
      /x\.cases\.yaml:5:25 cases\[0\]\.steps\[0\]\.calls\[0\]\.tool: step pick does not call listShelf \(it may call: getBook\)\n {2}x\.cases\.yaml:7:26 cases\[0\]\.steps\[0\]\.expect\.fail\[0\]: step pick has no gate nope \(its gates: produces, fetched, policy, sign-off\)/,
    );
  });

  it("warns about fields the format does not have, and about parts that check nothing, without refusing", () => {
    const text = "cases:\n  - steps:\n      - step: pick\n        output: { title: Emma }\n        expect: { fail: [] }\n        note: 1\n  - name: empty\n    steps: []\n";
    const file = parseCases(text, "x.cases.yaml", stepfile);
    expect(file.cases.map((c) => c.name)).toEqual(["case 1", "empty"]);
    expect(file.warnings.map((w) => `${w.line}:${w.column} ${w.path}: ${w.message}`)).toEqual([
      "6:9 cases[0].steps[0].note: unknown field note, ignored",
      "5:17 cases[0].steps[0].expect: fail: [] expects no gate to fail, which is what pass says",
      "8:12 cases[1].steps: the case has no entries, so it checks nothing",
    ]);
  });
});
