// The text is read as YAML 1.2 (JSON included) by src/format/source.ts; what
// it cannot read is this rule's finding. The parse is the check: the loader
// calls it once, and every later rule reads the data it gives.
import type { Issue } from "../../errors.js";
import { parseSource, type ParsedSource } from "../../format/source.js";
import type { StageRule } from "./rule.js";

export const syntax: StageRule & { check(text: string): ParsedSource | { issues: Issue[] } } = {
  id: "syntax",
  severity: "error",
  stage: "parse",
  description: "The text is not YAML or JSON Stepgate can read: a syntax error, a key repeated in YAML, or nesting deeper than the limit.",
  check(text) {
    const parsed = parseSource(text);
    return "issues" in parsed ? { issues: parsed.issues.map((i) => ({ ...i, rule: syntax.id })) } : parsed;
  },
};
