// The bundle checks authors' schemas against the 2020-12 meta-schema with
// standalone code generated at build time (scripts/build.ts,
// src/jsonschema/meta-schema-check.ts); from src/ Ajv compiles the
// meta-schema. Both must accept and refuse the same schemas with the same
// messages: every schema here goes through the built CLI and through the
// loader from src/, and the refusals must match line for line.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAjv } from "../../src/jsonschema/ajv.js";
import checkMetaSchema from "../../src/jsonschema/meta-schema-check.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { stepgateBin } from "../support/paths.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-meta-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Schemas the meta-schema refuses, one of each kind of mistake (types, enums, minimums, arrays, $dynamicRef'd $defs, formats, patterns). */
const refused: unknown[] = [
  { type: "strin" },
  { type: [1] },
  { type: ["string", "string"] },
  { minLength: -1 },
  { maxItems: 1.5 },
  { enum: 5 },
  { required: 3 },
  { required: ["a", "a"] },
  { properties: { a: { type: "nope" } } },
  { properties: 4 },
  { items: [{ type: "string" }] },
  { prefixItems: {} },
  { allOf: [] },
  { anyOf: [{ type: 1 }] },
  { not: 5 },
  { $defs: { a: { type: 5 } } },
  { definitions: { a: { type: "nope" } } },
  { dependentRequired: { a: [1] } },
  { dependentSchemas: { a: 1 } },
  { unevaluatedProperties: 1 },
  { additionalProperties: { minimum: "0" } },
  { propertyNames: { maxLength: "x" } },
  { contains: { minContains: -2 } },
  { format: 5 },
  { contentEncoding: 1 },
  { $comment: 1 },
  { deprecated: "x" },
  { readOnly: 1 },
  { title: ["x"] },
  { $id: 5 },
  { $id: "https://example.com/a#frag", type: "object" },
  { $anchor: "1bad" },
  { $anchor: "ok", type: "nope" },
  { $dynamicAnchor: "1x" },
  { $vocabulary: { x: 1 } },
  { $ref: 5 },
  { pattern: 5 },
  { patternProperties: { "^a": 5 } },
  { if: 1, then: {} },
  { $schema: "https://json-schema.org/draft/2020-12/schema", type: 3 },
  { properties: { a: { properties: { b: { items: { $defs: { c: { type: "x" } } } } } } } },
];

/** Schemas it accepts: plain ones and ones compiled at load. */
const accepted: unknown[] = [
  { type: "object", properties: { a: { type: "string", minLength: 1 } }, required: ["a"] },
  { type: ["string", "null"], format: "email" },
  { items: { type: "number", minimum: 0 }, minItems: 1, uniqueItems: true },
  { $defs: { item: { type: "string" } }, items: { $ref: "#/$defs/item" } },
  { $id: "https://example.com/s", $anchor: "top", properties: { x: { $dynamicAnchor: "meta" } } },
  { patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
  { pattern: "^[a-z]+$", contentEncoding: "base64", $comment: "note" },
  { $schema: "https://json-schema.org/draft/2020-12/schema", type: "integer" },
  { if: { properties: { a: { const: 1 } } }, then: { required: ["b"] }, else: { not: { required: ["b"] } } },
  { dependentRequired: { a: ["b"] }, dependentSchemas: { c: { required: ["d"] } }, unevaluatedProperties: false },
];

/** A stepfile with the schemas as the schema gates of one step. */
function stepfile(id: string, schemas: unknown[]): string {
  const gates = schemas.map((schema, i) => `      - { id: g${i}, schema: ${JSON.stringify(schema)} }`);
  return [`stepgate: "1"`, `id: ${id}`, `description: meta-schema check`, `inputs: { type: object }`, `steps:`, `  - id: s`, `    instructions: do it`, `    produces: { type: object }`, `    gates:`, ...gates, ""].join("\n");
}

/** The built CLI's stderr and exit code serving the file, with standard input closed (so it stops once loaded). */
function built(file: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [stepgateBin(), "--ledger-dir", dir, file], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });
}

describe("authors' schemas against the meta-schema, bundled and from src/", () => {
  it("refuses the same schemas with the same messages", async () => {
    // A few files, so one refusal cannot hide another and few processes start.
    for (let start = 0; start < refused.length; start += 8) {
      const name = `refused-${start}.stepfile.yaml`;
      writeFileSync(join(dir, name), stepfile(`refused-${start}`, refused.slice(start, start + 8)));
      const fromSrc = await loadStepfileFile(join(dir, name), name).then(
        () => "",
        (error: Error) => error.message,
      );
      // Every gate is refused by the meta-schema check itself, not by an earlier one.
      expect(fromSrc.split("\n").filter((l) => / not a valid JSON Schema: /.test(l)), fromSrc).toHaveLength(refused.slice(start, start + 8).length);
      const bundled = await built(name);
      expect(bundled.code, name).toBe(1);
      expect(bundled.stderr, name).toBe(`StepfileInvalid: ${fromSrc}\n`);
    }
  }, 600_000);

  it("accepts the same schemas", async () => {
    const name = "accepted.stepfile.yaml";
    writeFileSync(join(dir, name), stepfile("accepted", accepted));
    await expect(loadStepfileFile(join(dir, name), name)).resolves.toBeDefined();
    expect(await built(name)).toEqual({ code: 0, stderr: "" });
  }, 120_000);

  it("answers every schema as Ajv's own meta-schema check with RE2 patterns does, errors included", () => {
    const ajv = createAjv();
    for (const schema of [...refused, ...accepted].filter((s) => (s as { $schema?: unknown }).$schema === undefined)) {
      const valid = ajv.validateSchema(schema as object);
      expect(checkMetaSchema(schema), JSON.stringify(schema)).toBe(valid);
      expect(checkMetaSchema.errors ?? null, JSON.stringify(schema)).toEqual(ajv.errors ?? null);
    }
  });
});
