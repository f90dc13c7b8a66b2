// Format section 8, rules 6, 9, 10 and 11 for expressions and templates: an
// unknown or malformed operator, a path naming a step, let entry or call
// that is not an earlier one, results where it may not be read. The
// expression layer's checks (src/expr/check.ts) find them in the walk every
// expression rule shares (src/loader/expression-walk.ts, run once per file).
import { EXPRESSION } from "../expression-walk.js";
import type { Rule } from "./rule.js";

export const expression: Rule = {
  id: EXPRESSION,
  severity: "error",
  description: "An expression uses an unknown operator or a malformed one, reads a step, let entry or call that is not an earlier one, or uses results where it may not.",
  check: ({ facts, reportAll }) => reportAll(facts.expressions(EXPRESSION)),
};
