// `stepgate --check` of an Arazzo document honours --ignore and --format as
// it does for a stepfile (issue 27), through the built CLI: every finding
// has a rule id (the converted workflows' own, and the document's:
// arazzo-unconvertible, arazzo-unvalidated), --ignore leaves a warning rule
// out, and --format sarif validates against the SARIF 2.1.0 schema.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stepgate } from "../offline/cli.js";
import { REPO_ROOT } from "../support/paths.js";
import { sarifAjv, validSarif } from "../support/sarif.js";

// Under the repository (the CLI's working folder), so SARIF names it by relative URI.
const dir = mkdtempSync(join(REPO_ROOT, "test", "fixtures", ".arazzo-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(join(REPO_ROOT, "test", "arazzo", "fixtures", "store.openapi.json"), join(dir, "store.openapi.json"));
const document = join(dir, "shop.arazzo.yaml");
// readOrder converts with three warnings of two rules (a placeholder in its summary, shown as written in
// the title and description; an output reading `lines`, which getOrder's response does not declare);
// readEtag is refused (a response header), at line 31.
writeFileSync(
  document,
  `arazzo: 1.0.1
info:
  title: Read an order
  version: 1.0.0
sourceDescriptions:
  - name: store
    url: ./store.openapi.json
    type: openapi
workflows:
  - workflowId: readOrder
    summary: Read one order, for {{inputs.orderId}}
    inputs:
      type: object
      required: [orderId]
      properties:
        orderId: { type: string }
    steps:
      - stepId: read
        operationId: getOrder
        parameters:
          - { name: orderId, in: path, value: $inputs.orderId }
        successCriteria:
          - condition: $statusCode == 200
        outputs:
          status: $response.body#/status
          lines: $response.body#/lines
    outputs:
      status: $steps.read.outputs.status
  - workflowId: readEtag
    steps:
      - stepId: read
        operationId: getOrder
        parameters:
          - { name: orderId, in: path, value: ord-1 }
        outputs:
          etag: $response.header.ETag
`,
);
const DRAFT_FIELDS = join(REPO_ROOT, "test", "arazzo", "fixtures", "refund-approval.arazzo.yaml");

interface Finding {
  rule?: string;
  path: string;
  message: string;
  line?: number;
  column?: number;
}
const json = async (...args: string[]) => {
  const run = await stepgate("--check", "--json", ...args);
  const report = JSON.parse(run.stdout) as { files: Array<{ errors: Finding[]; warnings: Finding[] }> };
  return { code: run.code, errors: report.files[0]!.errors, warnings: report.files[0]!.warnings };
};

describe("stepgate --check of an Arazzo document", () => {
  it("gives every finding its rule id, and --ignore leaves a warning rule out as for a stepfile", async () => {
    const all = await json(document);
    expect(all.code).toBe(1);
    expect(all.errors).toEqual([expect.objectContaining({ rule: "arazzo-unconvertible", path: "workflows[1].steps[0]", line: 31, column: 9 })]);
    expect(all.warnings.map((w) => [w.rule, w.path])).toEqual([
      ["placeholder-shown-as-written", "readOrder: title"],
      ["placeholder-shown-as-written", "readOrder: description"],
      ["undeclared-path", expect.stringMatching(/^readOrder: steps\[0\]\.do\.output\./)],
    ]);
    const one = await json("--ignore", "placeholder-shown-as-written", document);
    expect(one.warnings.map((w) => w.rule)).toEqual(["undeclared-path"]);
    expect(one.errors).toEqual(all.errors);
    const text = await stepgate("--check", "--ignore", "placeholder-shown-as-written", "--ignore", "undeclared-path", document);
    expect(text.stdout).toMatch(/shop\.arazzo\.yaml:31:9: error: workflows\[1\]\.steps\[0\]: refused: .* \[arazzo-unconvertible\]\n/);
    expect(text.stdout).toContain("1 stepfile checked: 1 error, 0 warnings\n");
    // The document's own warning is a rule too: reported, and turned off by its id.
    expect((await json(DRAFT_FIELDS)).warnings).toEqual([expect.objectContaining({ rule: "arazzo-unvalidated", path: "workflows" })]);
    const quiet = await stepgate("--check", "--strict", "--ignore", "arazzo-unvalidated", DRAFT_FIELDS);
    expect(quiet, quiet.stderr).toMatchObject({ code: 0, stdout: "1 stepfile checked: 0 errors, 0 warnings\n" });
    expect(await stepgate("--check", "--ignore", "arazzo-unconvertible", document)).toMatchObject({ code: 2, stderr: expect.stringContaining("arazzo-unconvertible is a refusal") as unknown });
  }, 60_000);

  it("writes --format sarif that validates, each result with the rule id and place --json gives", async () => {
    const run = await stepgate("--check", "--format", "sarif", "--ignore", "undeclared-path", document);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as { runs: Array<{ tool: { driver: { rules: Array<{ id: string }> } }; results: Array<{ ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: object } }> }> }> };
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const [sarifRun] = log.runs;
    expect(sarifRun!.results.map((r) => [r.ruleId, r.level])).toEqual([
      ["arazzo-unconvertible", "error"],
      ["placeholder-shown-as-written", "warning"],
      ["placeholder-shown-as-written", "warning"],
    ]);
    for (const result of sarifRun!.results) expect(sarifRun!.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
    expect(sarifRun!.results[0]!.locations[0]!.physicalLocation).toMatchObject({ artifactLocation: { uri: relative(REPO_ROOT, document).split("\\").join("/") }, region: { startLine: 31, startColumn: 9 } });
    expect(sarifRun!.results[1]!.message.text).toMatch(/^readOrder: title: /);
  }, 60_000);
});
