// A list that came back empty: no invoices this month, no search results.
import { alteredAt, containers, type EvidenceKind } from "./kind.js";

export const emptyList: EvidenceKind = {
  name: "empty-list",
  derive({ call, index }) {
    if (call.is_error) return [];
    return containers(call.result, 4)
      .filter(({ node }) => Array.isArray(node) && node.length > 0)
      .map(({ path }) => ({ call: { ...call, result: alteredAt(call.result, path, () => []) }, change: "the list came back empty", at: ["calls", index, "result", ...path] }));
  },
};
