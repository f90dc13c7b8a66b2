// What the Arazzo schemas could not check (src/arazzo/document.ts): a
// version with no published schema here, or steps with the 1.2 draft's
// fields, which the published schemas predate. The workflows still convert,
// and each converted stepfile is checked like any other; this finding says
// that the document's own structure was not.
import type { StageRule } from "./rule.js";

export const arazzoUnvalidated: StageRule = {
  id: "arazzo-unvalidated",
  severity: "warning",
  stage: "convert",
  description: "An Arazzo document's version has no published JSON Schema here, or its steps use the 1.2 draft's fields that the published schemas predate, so that much of the document was not validated against a schema.",
};
