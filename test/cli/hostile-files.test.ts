// Files and arguments a hostile tester gave the built CLI (issue 29): NaN
// and infinities in a stepfile are errors with their file and line (and
// `--check --json` still prints its JSON), a FIFO or a directory is refused
// by what it is in every mode instead of waiting for a writer, and a case
// name or a `--check` argument is quoted capped, never echoed whole, and an
// exposed operation the inline document lacks is a load error naming it.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli-exec.js";
import { REPO_ROOT } from "../support/paths.js";

const work = mkdtempSync(join(tmpdir(), "stepgate-hostile-files-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const greet = join(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml");
const longest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));

const withNumber = (spelling: string) => `stepgate: "1"
id: odd-number
inputs:
  type: object
  properties:
    x: { type: number, maximum: ${spelling} }
steps:
  - id: a
    instructions: do it
    produces: { type: object }
    gates:
      - { id: g, schema: { type: object } }
`;

describe("hostile files and arguments", () => {
  it.each([
    [".nan", "NaN"],
    ["-.inf", "-Infinity"],
    ["1e999", "Infinity"],
  ])("refuses %s in a stepfile with its file and line, in text and JSON", async (spelling, value) => {
    const file = join(work, `odd-${value}.stepfile.yaml`);
    writeFileSync(file, withNumber(spelling));
    const text = await cli("--check", file);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${file}:6:33: error: inputs.properties.x.maximum: is ${value}, a number JSON has no spelling for`);
    expect(text.stderr).not.toContain("internal error");
    const json = await cli("--check", "--json", file);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { files: Array<{ errors: Array<{ path: string; line: number }> }> };
    expect(report.files[0]!.errors).toMatchObject([{ path: "inputs.properties.x.maximum", line: 6 }]);
    const served = await cli(file);
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(`${file}:6:33`);
  });

  it("refuses a FIFO and a directory by what they are in --check, serving and --test, without waiting", async () => {
    const fifo = join(work, "pipe.stepfile.yaml");
    execFileSync("mkfifo", [fifo]);
    const dir = join(work, "folder.stepfile.yaml");
    mkdirSync(dir);
    const check = await cli("--check", fifo, dir);
    expect(check.code).toBe(2);
    expect(check.stdout).toContain(`${fifo} could not be read: it is a FIFO (named pipe), not a regular file`);
    expect(check.stdout).toContain(`${dir} could not be read: it is a directory, not a regular file`);
    const served = await cli(fifo);
    expect(served.code).toBe(1);
    expect(served.stderr).toContain("StepfileUnreadable: ");
    expect(served.stderr).toContain("it is a FIFO (named pipe), not a regular file");
    const cases = join(work, "pipe.cases.yaml");
    execFileSync("mkfifo", [cases]);
    const tested = await cli("--test", greet, cases);
    expect(tested.code).toBe(2);
    expect(tested.stderr).toContain(`${cases} could not be read: it is a FIFO (named pipe), not a regular file`);
  });

  it("refuses an exposed operation the inline document lacks at load, naming it", async () => {
    const file = join(work, "missing-op.stepfile.yaml");
    writeFileSync(
      file,
      `stepgate: "1"
id: missing-op
inputs: { type: object }
tools:
  api:
    openapi:
      server: https://api.example.com
      document: { openapi: 3.1.0, info: { title: t, version: "1" }, paths: { /a: { get: { operationId: getA } } } }
    exposes: [getA, getB]
steps:
  - id: a
    instructions: call getA
    tools: [getA]
    produces: { type: object }
    gates:
      - { id: g, schema: { type: object } }
`,
    );
    const checked = await cli("--check", file);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain(`${file}:9:`);
    expect(checked.stdout).toContain(`tools.api.exposes[1]: operation "getB" is not in this tool's inline document (its operationIds: getA)`);
    const served = await cli(file);
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(`operation "getB" is not in this tool's inline document`);
  });

  it("quotes a 2 MB case name and a 100,000-character --check argument capped", async () => {
    const cases = join(work, "long-name.cases.yaml");
    writeFileSync(cases, `cases:\n  - name: ${"N".repeat(2_000_000)}\n    steps:\n      - step: hello\n        output: { greeting: hi }\n        expect: pass\n`);
    const tested = await cli("--test", greet, cases);
    expect(tested.stdout).toContain(`case "${"N".repeat(200)}..."`);
    expect(longest(tested.stdout)).toBeLessThan(1_000);
    const checked = await cli("--check", "x".repeat(100_000), `${"y".repeat(100_000)}.yaml`);
    expect(checked.code).toBe(2);
    expect(checked.stdout).toContain(`${"x".repeat(200)}... is neither a stepfile path`);
    expect(longest(checked.stdout)).toBeLessThan(1_000);
    expect(readFileSync(cases, "utf8").length).toBeGreaterThan(2_000_000);
  });
});
