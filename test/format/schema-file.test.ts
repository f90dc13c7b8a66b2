import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { stepfileStructure } from "../../src/format/structure.js";
import { describedStructure, structureDescriptions } from "../../src/format/structure-descriptions.js";

const published = JSON.parse(readFileSync(new URL("../../schema/stepfile.schema.json", import.meta.url), "utf8")) as Record<string, unknown>;

/** Every field (each entry of a `properties`) in a schema, with its path. */
function fields(node: unknown, path: string[] = []): Array<{ path: string; schema: Record<string, unknown> }> {
  if (Array.isArray(node)) return node.flatMap((n, i) => fields(n, [...path, String(i)]));
  if (node === null || typeof node !== "object") return [];
  const found: Array<{ path: string; schema: Record<string, unknown> }> = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && value !== null && typeof value === "object") {
      for (const [name, schema] of Object.entries(value)) {
        found.push({ path: [...path, "properties", name].join("."), schema: schema as Record<string, unknown> });
        found.push(...fields(schema, [...path, "properties", name]));
      }
    } else found.push(...fields(value, [...path, key]));
  }
  return found;
}

/** The schema with every description removed: what validation depends on. */
function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === "description" && typeof v === "string")).map(([k, v]) => [k, withoutDescriptions(v)]));
}

describe("schema/stepfile.schema.json", () => {
  it("is the loader's own structure definition with hover text added, written out (npm run schema regenerates it)", () => {
    expect(published).toEqual(describedStructure(stepfileStructure));
  });

  it("differs from the loader's structure in descriptions only, so it validates exactly as the loader does", () => {
    expect(withoutDescriptions(published)).toEqual(withoutDescriptions(JSON.parse(JSON.stringify(stepfileStructure))));
  });

  it("describes every field, every definition and the document itself (hover text in editors)", () => {
    const missing = fields(published).filter((f) => typeof f.schema.description !== "string" || f.schema.description.length < 10).map((f) => f.path);
    expect(missing).toEqual([]);
    for (const name of Object.keys(published.$defs as object)) expect(typeof ((published.$defs as Record<string, { description?: unknown }>)[name]!.description)).toBe("string");
    expect(typeof published.description).toBe("string");
    expect(fields(published).length).toBeGreaterThan(60);
  });

  it("refuses a description for a path the structure does not have", () => {
    expect(Object.keys(structureDescriptions).length).toBeGreaterThan(60);
    expect(() => describedStructure({ properties: {} })).toThrow(/structure description for properties.stepgate: no schema there/);
  });

  it("is a valid JSON Schema 2020-12 document", () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(() => ajv.compile(stepfileStructure)).not.toThrow();
    expect(() => new Ajv2020({ strict: true, allowUnionTypes: true }).compile(published)).not.toThrow();
  });
});
