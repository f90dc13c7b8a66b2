// A workflow of an Arazzo document that uses what a stepfile cannot mean
// (docs/arazzo.md lists the constructs) is refused by its conversion
// (src/arazzo/refusals.ts), naming the workflow, the step and what would
// make it convertible; the other workflows convert. Reported at the
// workflow's (or step's) place in the document (src/arazzo/served-document.ts).
import type { StageRule } from "./rule.js";

export const arazzoUnconvertible: StageRule = {
  id: "arazzo-unconvertible",
  severity: "error",
  stage: "convert",
  description: "A workflow of an Arazzo document uses a construct no stepfile can mean (a goto back, an onFailure goto, a source that is not OpenAPI, ...), so that workflow is not converted.",
};
