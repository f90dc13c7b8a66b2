// Load-time warnings: each kind with its line:column, through
// stepgate_validate; and warnings never refuse a draft.
import { describe, expect, it } from "vitest";
import { validateDraft } from "../../src/authoring/validate.js";
import { publicHttpsUrl } from "../../src/authoring/public-url.js";
import { loadStepfileText } from "../../src/loader/load.js";

const rules = { grants: { credentials: [], settings: [] }, env: {}, publicUrl: publicHttpsUrl };

const draft = `stepgate: "1"
id: reconcile
inputs:
  type: object
  properties:
    invoices: { type: array, items: { type: object, properties: { id: { type: string }, status: { type: string } } } }
steps:
  - id: check
    instructions: Check each invoice.
    produces:
      type: object
      properties:
        rows: { type: array, items: { type: object, properties: { id: { type: string }, status: { type: string } } } }
        total: { type: number }
    gates:
      - id: spelled
        message: every row keeps its status
        predicate: { none: [{ join: [{ var: output.rows }, { var: inputs.invoices }, id, id] }, { "!=": [{ var: left.statuz }, { var: right.status }] }] }
      - id: scoped
        message: "each row is under the total:"
        predicate: { all: [{ var: output.rows }, { "<": [{ var: output.total }, 100] }] }
        explain: { var: output.totl }
      - id: silent
        message: "the total is positive:"
        predicate: { ">": [{ var: output.total }, 0] }
`;

describe("stepgate_validate warnings", () => {
  it("names each silent failure with its line:column, and still accepts the draft", () => {
    const v = validateDraft(draft, rules);
    expect(v).toMatchObject({ valid: true, try: { accepted: true } });
    expect(v.warnings).toEqual([
      expect.objectContaining({ path: 'steps[0].gates[0].predicate.none[1]["!="][0].var', line: 18, message: expect.stringContaining('"left.statuz"') }),
      expect.objectContaining({ path: "steps[0].gates[1].predicate.all[1][\"<\"][0].var", line: 21, message: expect.stringContaining("all's item scope") }),
      expect.objectContaining({ path: "steps[0].gates[1].explain.var", line: 22, message: expect.stringContaining("did you mean output.total?") }),
      expect.objectContaining({ path: "steps[0].gates[2].predicate", line: 25, message: expect.stringContaining("has no explain") }),
    ]);
    expect(v.warnings![0]!.message).toContain("did you mean left.status?");
    expect(v.warnings!.every((w) => w.column !== undefined)).toBe(true);
    expect(validateDraft(draft, rules).valid).toBe(true);
  });

  it("lists them in the text answer", async () => {
    const { validationText } = await import("../../src/authoring/validate.js");
    expect(validationText(validateDraft(draft, rules))).toMatch(/Warnings \(4;[\s\S]*line 18:\d+ /);
  });

  it("has none once fixed, and none for paths the schemas leave open", () => {
    const fixed = draft
      .replace("left.statuz", "left.status")
      .replace("{ all: [{ var: output.rows }, { \"<\": [{ var: output.total }, 100] }] }", "{ \"<\": [{ var: output.total }, 100] }")
      .replace("output.totl", "output.total")
      .replace('predicate: { ">": [{ var: output.total }, 0] }', 'predicate: { ">": [{ var: output.total }, 0] }\n        explain: { cat: ["the total is ", { var: output.total }] }');
    expect(loadStepfileText(fixed, "draft").warnings).toEqual([]);
    const open = `stepgate: "1"
id: open
inputs: { type: object, additionalProperties: true, properties: { a: { type: string } } }
steps:
  - id: s
    instructions: x
    produces: { type: object, additionalProperties: true, properties: { n: { type: integer } } }
    derive: { n: { length: { var: output.items } } }
    gates:
      - { id: g, message: m, predicate: { "==": [{ var: inputs.zzz }, { var: output.anything.deep }] } }
      - { id: d, message: m, predicate: { "==": [{ var: output.n }, 1] } }
`;
    expect(loadStepfileText(open, "draft").warnings).toEqual([]);
  });
});

describe("serving prints the warnings once at load", () => {
  it("writes each warning with file:line:column to standard error and serves the file all the same", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { dirname, join } = await import("node:path");
    const { spawnStepgate } = await import("../support/stepgate.js");
    const file = join(mkdtempSync(join(tmpdir(), "stepgate-warn-")), "reconcile.stepfile.yaml");
    writeFileSync(file, draft);
    const stepgate = await spawnStepgate(["--ledger-dir", join(dirname(file), "ledger"), file]);
    try {
      const names = (await stepgate.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("reconcile");
      // Warnings are found once the tools/list answer is written (issue 27: they need not hold up the first answer).
      const warningLines = () => stepgate.stderr().split("\n").filter((l) => l.startsWith("stepgate: warning: "));
      for (let waited = 0; warningLines().length < 4 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = warningLines();
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatch(new RegExp(`^stepgate: warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:18:\\d+ steps\\[0\\]\\.gates\\[0\\]`));
    } finally {
      await stepgate.close();
    }
  }, 60_000);
});
