// A JSON text may repeat a key (RFC 8259 only says names SHOULD be unique),
// and JSON.parse keeps the last value; the format names no rule against it,
// so the file loads as JSON.parse reads it, with this warning at each
// repeated name. Only the parse sees a repeated key (the data keeps one), so
// the parser reports it with this id: src/format/source.ts,
// `jsonWithDuplicates` (the format layer, which this one builds on).
import type { StageRule } from "./rule.js";

export const duplicateJsonKey: StageRule = {
  id: "duplicate-json-key",
  severity: "warning",
  stage: "parse",
  description: "A key is repeated in an object of a JSON text; the last value counts, as JSON.parse reads it.",
};
