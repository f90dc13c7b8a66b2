// sort_by's third argument is "asc" or "desc"; any other literal makes it
// give null, so whatever reads the sorted list reads nothing. Found by the
// expression checks (src/expr/check.ts) in the shared expression walk.
import type { Rule } from "./rule.js";

export const sortDirection: Rule = {
  id: "sort-direction",
  severity: "warning",
  description: 'sort_by\'s direction is a literal other than "asc" or "desc", so sort_by gives null.',
  check: ({ facts, reportAll }) => reportAll(facts.expressions(sortDirection.id)),
};
