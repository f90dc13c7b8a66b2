// What `yaml` warns of and reads anyway: the yaml-warning finding, placed
// where it is written, and no line of `yaml`'s own on standard error (it used
// to print them with process.emitWarning, which in stdio mode without
// --ledger-dir broke that stream's promise of ledger lines only).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "../../src/tools/openapi/load-document.js";
import { checkedWarnings, expectLedgerLinesOnly, validated, type Finding } from "../support/check-findings.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

// A collection as a key (`? [a, b]`) and a tag no schema resolves (`!important`).
const TEXT = `stepgate: "1"
id: yaml-warning
inputs:
  type: object
  properties:
    name: { type: string, description: !important the customer's name }
    ? [a, b]
    : { type: string }
steps:
  - id: greet
    instructions: Write a greeting.
    produces: { type: object, required: [text], properties: { text: { type: string } } }
    gates: [{ id: shape, schema: { required: [text] } }]
`;

const dir = mkdtempSync(join(tmpdir(), "stepgate-yaml-warning-"));
const file = join(dir, "yaml-warning.stepfile.yaml");
writeFileSync(file, TEXT);

function expectFindings(warnings: Finding[]): void {
  const found = warnings.filter((w) => w.rule === "yaml-warning");
  expect(found.map(({ path, line, column }) => ({ path, line, column }))).toEqual([
    { path: "inputs.properties.name.description", line: 6, column: 40 },
    { path: "inputs.properties", line: 7, column: 7 },
  ]);
  expect(found[0]!.message).toBe("Unresolved tag: !important (TAG_RESOLVE_FAILED); YAML reads it anyway, as if it had no tag");
  expect(found[1]!.message).toContain("a key is a collection ([a, b])");
}

describe("yaml-warning", () => {
  let server: SpawnedStepgate | undefined;
  afterAll(async () => server?.close());

  it("--check places what YAML warns of, and nothing of YAML's own reaches standard error", async () => {
    const run = await checkedWarnings(file);
    expect(run.code).toBe(0);
    expectFindings(run.warnings);
    expect(run.stderr).toBe("");
  });

  it("serving over stdio without --ledger-dir leaves standard error to ledger lines; stepgate_validate reports the same", async () => {
    server = await spawnStepgate([file]);
    await server.client.listTools();
    const answer = await validated(server, TEXT);
    expect(answer.valid).toBe(true);
    expectFindings(answer.warnings ?? []);
    await server.client.ping();
    expectLedgerLinesOnly(server);
    expect(server.stderr()).not.toContain("Warning");
  });

  it("an OpenAPI document in YAML is read without a process warning", async () => {
    const warned: Error[] = [];
    const listen = (warning: Error) => warned.push(warning);
    process.on("warning", listen);
    try {
      const document = parseDocument(new TextEncoder().encode("openapi: 3.1.0\ninfo: { title: t, version: '1', x-note: !custom v }\npaths:\n  ? [a, b]\n  : {}\n"), "https://api.example.test/openapi.yaml");
      expect(document.openapi).toBe("3.1.0");
      // process.emitWarning emits on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listen);
    }
    expect(warned.map((w) => w.message)).toEqual([]);
  });
});
