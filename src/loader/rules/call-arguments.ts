// A mechanical call's arguments that its inline OpenAPI operation refuses:
// the run would stop with CallArgumentsInvalid, perhaps after a person approved.
import { CALL_ARGUMENTS } from "../path-walk.js";
import type { Rule } from "./rule.js";

export const callArguments: Rule = {
  id: CALL_ARGUMENTS,
  severity: "warning",
  readsOperations: true,
  description: "A mechanical call's arguments miss a required argument or field, name one the operation does not have, or give a value its schema refuses, so the call is refused at run time (CallArgumentsInvalid).",
  check: ({ facts, reportAll }) => reportAll(facts.paths(CALL_ARGUMENTS)),
};
