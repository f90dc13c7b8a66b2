// Where the published Arazzo JSON Schemas disagree with the specification
// they describe, the specification wins (the schema is not normative), so the
// schema is corrected here, when it is compiled, and the vendored copy in
// schemas/ stays as published.
//
// The 1.0 schema's Criterion Object (OAI/Arazzo-Specification,
// src/schemas/validation/schema.yaml on v1.0-dev, unchanged from commit
// 4a9a7f9 to a68230d) puts a Criterion Expression Type Object beside the
// criterion's fields, through an `anyOf` at the criterion's own level. The
// specification (versions/1.0.1.md at fc140d2, "Criterion Object" field
// `type`, and its "Criterion Expression Type Example") makes it the value of
// `type`: `type: { type: jsonpath, version: draft-goessner-dispatch-jsonpath-00 }`.
// So the schema refuses the specification's own form and accepts one it does
// not define (`type: jsonpath` beside `version: ...`). This is
// OAI/Arazzo-Specification issue #336 (open; pull request #338 proposes the
// fix). The 1.1 schema already has `type` as a string or that object.
import type { JsonObject } from "../format/json-pointer.js";

/** The 1.0 schema with the Criterion Object's `type` a string or a Criterion Expression Type Object (issue #336). */
export function corrected10(schema: object): object {
  const copy = structuredClone(schema) as JsonObject & { $defs: Record<string, JsonObject> };
  const criterion = copy.$defs["criterion-object"]!;
  const [asString] = criterion.anyOf as [{ properties: { type: JsonObject } }, unknown];
  delete criterion.anyOf;
  const { enum: names, ...described } = asString.properties.type;
  criterion.properties = { ...(criterion.properties as JsonObject), type: { ...described, anyOf: [{ enum: names }, { $ref: "#/$defs/criterion-expression-type-object" }] } };
  return copy;
}
