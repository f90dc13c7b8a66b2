// A field the API left out: an optional field absent, as many APIs leave
// out what is empty or unknown. Not one the operation's inline document
// requires: the API promises that one.
import { alteredAt, containers, type EvidenceKind } from "./kind.js";

export const fieldMissing: EvidenceKind = {
  name: "field-missing",
  derive({ call, index, required }) {
    if (call.is_error) return [];
    return containers(call.result, 3)
      .filter(({ node }) => !Array.isArray(node))
      .flatMap(({ node, path }) =>
        Object.keys(node)
          .filter((key) => !required(call.tool, [...path, key]))
          .map((key) => ({
          call: { ...call, result: alteredAt(call.result, path, (n) => Object.fromEntries(Object.entries(n as object).filter(([k]) => k !== key))) },
          change: `${key} missing from the result`,
          at: ["calls", index, "result", ...path, key],
        })),
      );
  },
};
