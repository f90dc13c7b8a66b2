// A placeholder in instructions naming an input or an earlier step's output
// property that nothing declares: it has no value when the step starts, so
// the run fails with PlaceholderUnresolved, after the mechanical steps before
// it have already run (and made their calls).
import { UNRESOLVABLE_PLACEHOLDER } from "../path-walk.js";
import type { Rule } from "./rule.js";

export const unresolvablePlaceholder: Rule = {
  id: UNRESOLVABLE_PLACEHOLDER,
  severity: "warning",
  description: "A {{inputs...}} or {{steps.<id>...}} placeholder in instructions names a property the inputs schema or that step's output does not declare, so it has no value when the step starts and the run fails with PlaceholderUnresolved.",
  check: ({ facts, reportAll }) => reportAll(facts.paths(UNRESOLVABLE_PLACEHOLDER)),
};
