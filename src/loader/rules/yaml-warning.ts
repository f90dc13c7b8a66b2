// What the YAML reader warns of and reads anyway (a tag it cannot resolve, a
// collection used as a key, an unknown directive, ...): the file loads as
// YAML reads it, with this warning where it is written. Only the positioned
// parse meets these, so the parse reports them with this id:
// src/format/yaml-warnings.ts.
import type { StageRule } from "./rule.js";

export const yamlWarning: StageRule = {
  id: "yaml-warning",
  severity: "warning",
  stage: "parse",
  description: "The YAML reader warns of something it reads anyway: a tag it cannot resolve, a collection used as a mapping key (it becomes its text), an unknown directive, an anchor or alias ending in a colon, a flow collection indented too little.",
};
