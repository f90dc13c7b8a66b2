// Inside map, filter, reduce, all, some and none, `var` reads the current
// item: `output.x` there is the item's `output.x`, almost never what was meant.
import { STEP_DATA_IN_ITEM_SCOPE } from "../path-walk.js";
import type { Rule } from "./rule.js";

export const stepDataInItemScope: Rule = {
  id: STEP_DATA_IN_ITEM_SCOPE,
  severity: "warning",
  description: "output., inputs., steps., let. or calls is read inside an iterating operator, where var reads the current item instead of the step data.",
  check: ({ facts, reportAll }) => reportAll(facts.paths(STEP_DATA_IN_ITEM_SCOPE)),
};
