// `item` is bound only in the arguments of a mechanical call with each;
// anywhere else in a template it reads nothing. Found by the expression
// checks (src/expr/check.ts) in the shared expression walk.
import type { Rule } from "./rule.js";

export const itemOutsideEach: Rule = {
  id: "item-outside-each",
  severity: "warning",
  description: "A mechanical step's template reads item outside the arguments of a call with each, where item is not bound.",
  check: ({ facts, reportAll }) => reportAll(facts.expressions(itemOutsideEach.id)),
};
