// A schema's format Stepgate does not check: the unknown-format warning,
// placed where the format is written, and nothing printed by Ajv (it used to
// print "unknown format ... ignored" lines on standard error, which in stdio
// mode without --ledger-dir carries only ledger lines).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KNOWN_FORMATS } from "../../src/jsonschema/ajv.js";
import { cli } from "../support/cli-exec.js";
import { checkedWarnings, expectLedgerLinesOnly, validated, type Finding } from "../support/check-findings.js";
import { REPO_ROOT } from "../support/paths.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

// Three formats no one checks, in three kinds of place (a property, an array's
// items, a gate schema's prefixItems); a known one; and `format` as data or as
// a property's name, which are not formats at all.
const TEXT = `stepgate: "1"
id: unknown-format
inputs:
  type: object
  required: [requested_on, due]
  properties:
    requested_on: { type: string, format: iso-8601 }
    due: { type: string, format: date }
    format: { type: string, default: "format: x" }
steps:
  - id: dates
    instructions: List the dates the order changed on.
    produces:
      type: object
      required: [dates]
      properties:
        dates: { type: array, items: { type: string, format: date_time } }
        shape: { type: object, default: { format: not-a-format }, examples: [{ format: neither }], const: { format: nor-this } }
    gates:
      - id: first-is-mail
        schema: { type: object, properties: { dates: { type: array, prefixItems: [{ type: string, format: emial }] } } }
`;

const dir = mkdtempSync(join(tmpdir(), "stepgate-unknown-format-"));
const file = join(dir, "unknown-format.stepfile.yaml");
writeFileSync(file, TEXT);

const EXPECTED = [
  { path: "inputs.properties.requested_on.format", line: 7, column: 43, near: undefined },
  { path: "steps[0].produces.properties.dates.items.format", line: 17, column: 62, near: '"date-time"' },
  { path: "steps[0].gates[0].schema.properties.dates.prefixItems[0].format", line: 21, column: 107, near: '"email"' },
];

function expectFindings(warnings: Finding[]): void {
  const found = warnings.filter((w) => w.rule === "unknown-format");
  expect(found.map(({ path, line, column }) => ({ path, line, column }))).toEqual(EXPECTED.map(({ path, line, column }) => ({ path, line, column })));
  for (const [i, { near }] of EXPECTED.entries()) {
    expect(found[i]!.message).toContain("is not a format Stepgate checks, so any value passes it");
    if (near) expect(found[i]!.message).toMatch(new RegExp(`did you mean [^?]*${near}\\?`));
    else expect(found[i]!.message).not.toContain("did you mean");
  }
}

describe("unknown-format", () => {
  let server: SpawnedStepgate | undefined;
  afterAll(async () => server?.close());

  it("--check places each unknown format and prints nothing of Ajv's", async () => {
    const run = await checkedWarnings(file);
    expect(run.code).toBe(0);
    expectFindings(run.warnings);
    expect(run.stderr).toBe("");
    // The text form names the rule beside the place.
    const text = await cli("--check", file);
    expect(text.stdout).toContain(`${file}:7:43: warning: inputs.properties.requested_on.format: "iso-8601" is not a format Stepgate checks`);
    expect(text.stderr).toBe("");
  });

  it("serving over stdio without --ledger-dir leaves standard error to ledger lines; stepgate_validate reports the same findings", async () => {
    server = await spawnStepgate([file]);
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toContain("unknown-format");
    const answer = await validated(server, TEXT);
    expect(answer.valid).toBe(true);
    expectFindings(answer.warnings ?? []);
    // A run starts: its inputs are checked against the schema with the unknown format (compiled by Ajv now, if not before).
    const started = (await server.client.callTool({ name: "unknown-format", arguments: { requested_on: "2026-12-01", due: "2026-12-03" } })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(started.isError ?? false, started.content[0]?.text).toBe(false);
    // Give the deferred warnings pass (after the first tools/list) its turn, then look at everything written so far.
    await server.client.ping();
    expectLedgerLinesOnly(server);
    expect(server.stderr()).not.toContain("unknown format");
  });

  it("docs/checks.md names every format checked", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs", "checks.md"), "utf8");
    const section = doc.slice(doc.indexOf("### unknown-format"), doc.indexOf("```yaml", doc.indexOf("### unknown-format")));
    const listed = [...section.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]).filter((name) => name !== "format" && name !== "pattern");
    expect(new Set(listed)).toEqual(KNOWN_FORMATS);
  });
});
