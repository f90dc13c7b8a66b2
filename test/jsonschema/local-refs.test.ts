// A schema whose every `$ref` names one of its root's `$defs` is compiled on
// first use like any plain schema (src/jsonschema/author-schemas.ts); any
// other `$ref` is compiled at load, so a reference that does not resolve
// is still refused at load with Ajv's own message.
import { describe, expect, it } from "vitest";
import { createAjv } from "../../src/jsonschema/ajv.js";
import { authorSchemaCompiler } from "../../src/jsonschema/author-schemas.js";

const withLocalRefs = {
  $defs: { price: { type: "number", minimum: 0 }, line: { type: "object", required: ["price"], properties: { price: { $ref: "#/$defs/price" } } } },
  type: "array",
  items: { $ref: "#/$defs/line" },
};

/** What ajv.compile throws for the schema, from a fresh instance. */
function ajvError(schema: object): string {
  try {
    createAjv().compile(schema);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("ajv compiled it");
}

describe("local $refs in authors' schemas", () => {
  it("validate as Ajv does, errors included", () => {
    const validate = authorSchemaCompiler()(withLocalRefs);
    const reference = createAjv().compile(withLocalRefs);
    for (const data of [[{ price: 1 }], [{ price: -1 }], [{}], [{ price: "x" }, { price: 2 }], "no"]) {
      expect(validate(data), JSON.stringify(data)).toBe(reference(data));
      expect(validate.errors ?? null, JSON.stringify(data)).toEqual(reference.errors ?? null);
    }
  });

  it("refuse a reference to a name $defs lacks at load, with Ajv's message", () => {
    for (const schema of [
      { $defs: { a: { type: "string" } }, items: { $ref: "#/$defs/b" } },
      { $defs: { a: { $ref: "#/$defs/missing" } }, items: { $ref: "#/$defs/a" } },
      { items: { $ref: "#/$defs/a" } },
    ]) {
      expect(() => authorSchemaCompiler()(schema), JSON.stringify(schema)).toThrow(ajvError(schema));
    }
  });

  it("refuse a $defs entry that is not a schema at load, with Ajv's message", () => {
    const schema = { $defs: { a: 5 }, items: { $ref: "#/$defs/a" } };
    expect(() => authorSchemaCompiler()(schema)).toThrow(ajvError(schema));
  });

  it("compile nothing before the first check when the document was checked before", () => {
    // A load cache hit (src/loader/load.ts): even a reference that would not resolve is only compiled on first use.
    const validate = authorSchemaCompiler({ checked: true })({ items: { $ref: "#/$defs/none" } });
    expect(() => validate([1])).toThrow(/can't resolve reference/);
  });
});
