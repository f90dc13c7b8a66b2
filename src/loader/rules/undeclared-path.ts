// A literal path that reads a property no schema on its way declares: null
// at run time, so a gate fails (or passes) for a reason nobody wrote.
import { UNDECLARED_PATH } from "../path-walk.js";
import type { Rule } from "./rule.js";

export const undeclaredPath: Rule = {
  id: UNDECLARED_PATH,
  severity: "warning",
  readsOperations: true,
  description: "A path reads a property that the schema it walks into (inputs, produces, an output template, an operation's responses or arguments) does not declare, so it would be null at run time.",
  check: ({ facts, reportAll }) => reportAll(facts.paths(UNDECLARED_PATH)),
};
