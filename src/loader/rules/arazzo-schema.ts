// An Arazzo document given to serving or --check is validated against the
// specification's own JSON Schema for its version (src/arazzo/document.ts);
// a document that breaks it converts no workflow. Reported there, by the
// reading of the document that every conversion starts with.
import type { StageRule } from "./rule.js";

export const arazzoSchema: StageRule = {
  id: "arazzo-schema",
  severity: "error",
  stage: "convert",
  description: "An Arazzo document does not validate against the Arazzo Specification's JSON Schema for its version, so none of its workflows is converted.",
};
