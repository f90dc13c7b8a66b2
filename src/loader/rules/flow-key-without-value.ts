// `{ title: Shop API, v2 (beta), version: 1 }` is a mapping with three keys,
// `v2 (beta)` one of them with a null value: YAML ends a flow entry at an
// unquoted comma. The file loads as YAML reads it, with this warning at the
// key. Only the positioned parse sees how the entry was written, so the
// parse reports it with this id: src/format/flow-keys-without-value.ts.
import type { StageRule } from "./rule.js";

export const flowKeyWithoutValue: StageRule = {
  id: "flow-key-without-value",
  severity: "warning",
  stage: "parse",
  description: "A key in a flow mapping ({ ... }) has no `:` and no value, most often text after an unquoted comma.",
};
