// Whether an author's schema may be compiled on first use depends on every
// `format` in it being one Ajv knows (src/jsonschema/author-schemas.ts);
// that is read from KNOWN_FORMATS, so no Ajv instance has to be made at
// load. It must be exactly what an instance from createAjv() knows.
import { describe, expect, it } from "vitest";
import { createAjv, KNOWN_FORMATS } from "../../src/jsonschema/ajv.js";

describe("KNOWN_FORMATS", () => {
  it("is the set of formats a createAjv() instance knows", () => {
    expect([...KNOWN_FORMATS].sort()).toEqual(Object.keys(createAjv().formats).sort());
    expect(KNOWN_FORMATS.has("email")).toBe(true);
    expect(KNOWN_FORMATS.has("not-a-format")).toBe(false);
  });
});
