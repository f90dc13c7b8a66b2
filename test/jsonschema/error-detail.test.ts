// What a refusal says: ajv's words, with what was given and what is allowed.
import { describe, expect, it } from "vitest";
import { createAjv, describeErrors } from "../../src/jsonschema/ajv.js";

const schema = {
  type: "object",
  properties: {
    kind: { enum: ["a", "b"] },
    count: { type: "integer", maximum: 3 },
    code: { type: "string", maxLength: 2 },
    fixed: { const: "x" },
    tags: { type: "array", maxItems: 1 },
  },
};

describe("describeErrors with the data", () => {
  it("names the path, the value given and what the schema allows", () => {
    const validate = createAjv().compile(schema);
    const data = { kind: "c", count: "3", code: "abc", fixed: "y", tags: [1, 2] };
    expect(validate(data)).toBe(false);
    expect(describeErrors(validate.errors, "output", data)).toEqual([
      'output.kind must be one of "a", "b"; got "c"',
      'output.count must be integer; got "3" (a string)',
      'output.code must NOT have more than 2 characters; got 3 ("abc")',
      'output.fixed must be "x"; got "y"',
      "output.tags must NOT have more than 1 items; got 2",
    ]);
    const bound = { count: 9 };
    expect(validate(bound)).toBe(false);
    expect(describeErrors(validate.errors, "output", bound)).toEqual(["output.count must be <= 3; got 9"]);
  });

  it("keeps ajv's words alone without the data", () => {
    const validate = createAjv().compile(schema);
    validate({ kind: "c" });
    expect(describeErrors(validate.errors)).toEqual(["output.kind must be equal to one of the allowed values"]);
  });
});
