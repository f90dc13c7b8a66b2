// A JSON stepfile may repeat a name in an object: RFC 8259 says names SHOULD
// be unique, JSON.parse keeps the last value, and the format names no rule
// against it. It loads as JSON.parse reads it, with a warning at each
// repeated name. YAML 1.2 requires unique keys, so a YAML text still fails.
import { describe, expect, it } from "vitest";
import { StepfileInvalid } from "../../src/errors.js";
import { parseSource } from "../../src/format/source.js";
import { loadStepfileText } from "../../src/loader/load.js";

const repeated = `{
  "stepgate": "1",
  "id": "dup-json",
  "title": "first title",
  "inputs": { "type": "object", "properties": { "n": { "type": "number" }, "n": { "type": "string" } } },
  "steps": [
    { "id": "only", "instructions": "Say hi.", "produces": { "type": "object" }, "gates": [{ "id": "greeted", "schema": { "type": "object", "required": ["greeting"] } }] }
  ],
  "title": "last title"
}
`;

describe("repeated names in a JSON stepfile", () => {
  it("loads with the last value of each, exactly as JSON.parse reads the text", () => {
    const loaded = loadStepfileText(repeated, "dup.stepfile.json");
    expect(loaded.doc).toEqual(JSON.parse(repeated));
    expect(loaded.doc.title).toBe("last title");
    expect(loaded.identity).toBe(loadStepfileText(JSON.stringify(JSON.parse(repeated)), "clean.stepfile.json").identity);
  });

  it("warns at each repeated name with its path, line and column", () => {
    const loaded = loadStepfileText(repeated, "dup.stepfile.json");
    const duplicates = loaded.warnings.filter((w) => w.message.includes("is repeated"));
    expect(duplicates).toEqual([
      { path: "inputs.properties.n", message: `"n" is repeated in this object; as JSON, the last value counts`, line: 5, column: 76, rule: "duplicate-json-key" },
      { path: "title", message: `"title" is repeated in this object; as JSON, the last value counts`, line: 9, column: 3, rule: "duplicate-json-key" },
    ]);
  });

  it("places later issues at the value that counts (the last one)", () => {
    const parsed = parseSource(repeated);
    if ("issues" in parsed) throw new Error("refused");
    expect(parsed.locate(["title"])).toEqual({ line: 9, column: 12 });
  });

  it("still refuses a YAML text that repeats a key (YAML 1.2 requires unique keys)", () => {
    const yaml = "stepgate: '1'\nid: a\nid: b\ninputs: {type: object}\nsteps: [{id: s, instructions: x}]\n";
    expect(() => loadStepfileText(yaml, "dup.stepfile.yaml")).toThrowError(StepfileInvalid);
    try {
      loadStepfileText(yaml, "dup.stepfile.yaml");
    } catch (error) {
      expect((error as StepfileInvalid).issues).toEqual([expect.objectContaining({ message: "Map keys must be unique", line: 3, column: 1 })]);
    }
  });

  it("refuses a JSON-looking text with a repeated name that is not JSON (a YAML flow mapping)", () => {
    const flow = `{ stepgate: "1", id: a, id: b, inputs: { type: object }, steps: [ { id: s, instructions: x } ] }`;
    expect(() => loadStepfileText(flow, "dup.stepfile.yaml")).toThrowError(StepfileInvalid);
  });
});
