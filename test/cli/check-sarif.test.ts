// `stepgate --check` as a linter (issue 27, item 4), through the built CLI:
// every finding with its rule id in --json, findings by file, line and
// column, --ignore, and --format sarif validated against the SARIF 2.1.0
// JSON Schema (test/fixtures/sarif/, from OASIS's oasis-tcs/sarif-spec).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_RULES, ruleById } from "../../src/loader/rules/index.js";
import { stepgate } from "../offline/cli.js";
import { FOUR_MISTAKES, LEND_BOOKS } from "../support/lend-books.js";
import { REPO_ROOT } from "../support/paths.js";
import { sarifAjv as ajv, validSarif } from "../support/sarif.js";


// Under the repository (the CLI's working folder), so SARIF names them by relative URI as code scanning wants.
const dir = mkdtempSync(join(REPO_ROOT, "test", "fixtures", ".sarif-"));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
// Two findings in one file, written so their order in the file is not the order the rules run in.
const two = write(
  "b-two.stepfile.yaml",
  FOUR_MISTAKES[3]!.text.replace("results: [listBooks, books]", "results: [listBooks, items]"),
);
const one = write("a-one.stepfile.yaml", FOUR_MISTAKES[2]!.text);
const invalid = write("c-invalid.stepfile.yaml", 'stepgate: "1"\nid: Lend\ninputs: { type: object }\nsteps: []\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const outside = join(mkdtempSync(join(tmpdir(), "stepgate-sarif-")), "outside.stepfile.yaml");
writeFileSync(outside, LEND_BOOKS);

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } } }>;
}
interface SarifLog {
  version: string;
  runs: Array<{ tool: { driver: { name: string; version: string; rules: Array<{ id: string; shortDescription: { text: string }; helpUri: string }> } }; results: SarifResult[]; invocations: Array<{ executionSuccessful: boolean }> }>;
}

describe("stepgate --check as a linter", () => {
  it("gives each finding its rule id in --json, beside line, column, path and message", async () => {
    const run = await stepgate("--check", "--json", one, invalid);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { files: Array<{ file: string; errors: object[]; warnings: object[] }> };
    expect(report.files.map((f) => f.file)).toEqual([one, invalid]);
    expect(report.files[0]!.warnings).toEqual([{ path: "steps[0].do.calls[0].arguments.per_page", message: expect.stringContaining("per_page = 250 is over the documented maximum of 100") as unknown, line: expect.any(Number) as unknown, column: expect.any(Number) as unknown, rule: "call-arguments" }]);
    expect(report.files[1]!.errors).toEqual([
      expect.objectContaining({ path: "id", rule: "structure", line: 2, column: 5 }),
      expect.objectContaining({ path: "steps", rule: "structure", line: 4, column: 8 }),
    ]);
  }, 60_000);

  it("lists findings by file, line and column, whatever order the files and rules come in", async () => {
    const run = await stepgate("--check", two, invalid, one);
    const places = run.stdout
      .trim()
      .split("\n")
      .slice(0, -1)
      .map((l) => /^(.+?):(\d+):(\d+): /.exec(l)!.slice(1))
      .map(([file, line, column]) => [file!, Number(line), Number(column)] as const);
    expect(places.map(([file]) => file)).toEqual([one, two, two, invalid, invalid]);
    const sorted = [...places].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
    expect(places).toEqual(sorted);
    // In b-two the approve message (rule placeholder-shown-as-written) comes after the results path (undeclared-path), though its rule runs first.
    expect(run.stdout.split("\n").filter((l) => l.startsWith(two)).map((l) => /\[([a-z-]+)\]$/.exec(l)![1])).toEqual(["undeclared-path", "placeholder-shown-as-written"]);
  }, 60_000);

  it("turns a rule off for one run with --ignore, and refuses an id no rule has or a refusal's", async () => {
    const run = await stepgate("--check", "--strict", "--ignore", "undeclared-path", "--ignore", "placeholder-shown-as-written", two);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toBe("1 stepfile checked: 0 errors, 0 warnings\n");
    expect(await stepgate("--check", "--ignore", "undeclared-paths", two)).toMatchObject({ code: 2, stderr: "stepgate: --ignore undeclared-paths: no rule has this id; did you mean undeclared-path? (docs/checks.md lists them)\n" });
    expect(await stepgate("--check", "--ignore", "structure", invalid)).toMatchObject({ code: 2, stderr: expect.stringContaining("structure is a refusal") as unknown });
    expect(await stepgate("--ignore", "undeclared-path", two)).toMatchObject({ code: 2, stderr: expect.stringContaining("--ignore is only for --check") as unknown });
    expect(await stepgate("--check", "--format", "xml", two)).toMatchObject({ code: 2, stderr: expect.stringContaining('--format "xml": expected text, json or sarif') as unknown });
  }, 60_000);

  it("writes SARIF 2.1.0 that validates against the schema: rules listed, each result with ruleId, message and region", async () => {
    const run = await stepgate("--check", "--format", "sarif", two, invalid, one, outside);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as SarifLog;
    expect(validSarif(log), ajv.errorsText(validSarif.errors)).toBe(true);
    // The schema is really applied: a result without a message, or with a column 0, does not validate.
    const [first, ...rest] = log.runs[0]!.results;
    expect(validSarif({ ...log, runs: [{ ...log.runs[0], results: [{ ...first, message: {} }, ...rest] }] })).toBe(false);
    expect(validSarif({ ...log, runs: [{ ...log.runs[0], results: [{ ...first, locations: [{ physicalLocation: { ...first!.locations[0]!.physicalLocation, region: { startLine: 1, startColumn: 0 } } }] }] }] })).toBe(false);
    expect(log.version).toBe("2.1.0");
    const [sarifRun] = log.runs;
    const rules = sarifRun!.tool.driver.rules;
    expect(sarifRun!.tool.driver.name).toBe("stepgate");
    expect(rules.map((r) => r.id)).toEqual(expect.arrayContaining(["structure", "undeclared-path", "call-arguments", "placeholder-shown-as-written", "pinned-document-unchecked"]));
    // Every rule, each with its description and the link to its section of docs/checks.md in the package of this version.
    expect(rules.map((r) => r.id).sort()).toEqual(ALL_RULES.map((r) => r.id).sort());
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    expect(sarifRun!.tool.driver.version).toBe(version);
    const headings = new Set([...readFileSync(join(REPO_ROOT, "docs", "checks.md"), "utf8").matchAll(/^### (.+)$/gm)].map((m) => m[1]));
    for (const rule of rules) {
      expect(rule.shortDescription.text, rule.id).toBe(ruleById(rule.id)!.description);
      expect(rule.helpUri).toBe(`https://unpkg.com/stepgate@${version}/docs/checks.md#${rule.id}`);
      expect(headings.has(new URL(rule.helpUri).hash.slice(1)), rule.helpUri).toBe(true);
    }
    const json = JSON.parse((await stepgate("--check", "--json", two, invalid, one, outside)).stdout) as { files: Array<{ file: string; errors: Array<{ rule: string; line: number; column: number; message: string; path: string }>; warnings: Array<{ rule: string; line: number; column: number; message: string; path: string }> }> };
    const expected = json.files.flatMap((f) => [...f.errors.map((i) => ({ ...i, level: "error", file: f.file })), ...f.warnings.map((i) => ({ ...i, level: "warning", file: f.file }))]);
    expect(sarifRun!.results).toHaveLength(expected.length);
    sarifRun!.results.forEach((result, i) => {
      const finding = expected[i]!;
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      expect(result).toMatchObject({ ruleId: finding.rule, level: finding.level, message: { text: `${finding.path}: ${finding.message}` } });
      expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(region).toEqual({ startLine: finding.line, startColumn: finding.column });
      expect(artifactLocation.uri).toBe(relative(REPO_ROOT, finding.file).split("\\").join("/"));
    });
    expect(sarifRun!.invocations).toEqual([{ executionSuccessful: true }]);
  }, 60_000);

  it("names a file outside the working folder by file: URL, and a file it cannot read as a notification", async () => {
    const broken = write("d-broken.stepfile.yaml", LEND_BOOKS.replace("per_page: 50", "per_page: 250"));
    const moved = outside.replace("outside", "elsewhere");
    writeFileSync(moved, readFileSync(broken, "utf8"));
    const run = await stepgate("--check", "--format", "sarif", moved, join(dir, "missing.stepfile.yaml"));
    expect(run.code).toBe(2);
    const log = JSON.parse(run.stdout) as SarifLog & { runs: Array<{ invocations: Array<{ toolExecutionNotifications?: Array<{ message: { text: string } }> }> }> };
    expect(validSarif(log), ajv.errorsText(validSarif.errors)).toBe(true);
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(`file://${moved}`);
    expect(log.runs[0]!.invocations[0]).toMatchObject({ executionSuccessful: false, toolExecutionNotifications: [{ message: { text: expect.stringContaining("missing.stepfile.yaml") as unknown } }] });
  }, 60_000);
});
