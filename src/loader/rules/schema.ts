// Every schema and predicate is compiled once, at load (src/loader/compile.ts):
// a schema that is not a valid JSON Schema 2020-12, or a predicate that does
// not compile, is this rule's finding. The compile is the check, since what
// it makes is what runs.
import { compileStepfile, type CompiledStepfile } from "../compile.js";
import type { StepfileDocument } from "../../format/types.js";
import type { RawIssue } from "../raw-issue.js";
import type { StageRule } from "./rule.js";

export const schema: StageRule & { check(doc: StepfileDocument): { compiled?: CompiledStepfile; issues: RawIssue[] } } = {
  id: "schema",
  severity: "error",
  stage: "compile",
  description: "A schema is not a valid JSON Schema (2020-12), or a predicate does not compile.",
  check(doc) {
    const { compiled, issues } = compileStepfile(doc);
    return { ...(compiled ? { compiled } : {}), issues: issues.map((i) => ({ ...i, rule: schema.id })) };
  },
};
