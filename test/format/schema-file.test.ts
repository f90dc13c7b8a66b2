import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { stepfileStructure } from "../../src/format/structure.js";

describe("schema/stepfile.schema.json", () => {
  it("is the loader's own structure definition, written out (npm run schema regenerates it)", () => {
    const published = JSON.parse(readFileSync(new URL("../../schema/stepfile.schema.json", import.meta.url), "utf8"));
    expect(published).toEqual(JSON.parse(JSON.stringify(stepfileStructure)));
  });

  it("is a valid JSON Schema 2020-12 document", () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(() => ajv.compile(stepfileStructure)).not.toThrow();
  });
});
