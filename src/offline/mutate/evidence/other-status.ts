// An answer other than the one recorded: a 404 where the lookup succeeded,
// a 500 where the step accepted a 404; an error result from an MCP tool.
import type { CaseCall } from "../../cases-file.js";
import type { EvidenceKind } from "./kind.js";

export const otherStatus: EvidenceKind = {
  name: "other-status",
  derive({ call, index, http }) {
    let varied: CaseCall;
    if (!http) {
      if (call.is_error) return [];
      varied = { ...call, is_error: true, result: "the tool reported an error" };
    } else {
      const status = call.is_error ? (call.status === 500 ? 404 : 500) : 404;
      varied = { ...call, is_error: true, status, result: { error: status === 404 ? "not found" : "internal error" } };
    }
    const was = call.is_error ? `HTTP ${call.status ?? "error"}` : "a success";
    return [{ call: varied, change: `${varied.status !== undefined ? `HTTP ${varied.status}` : "an error"} instead of ${was}`, at: ["calls", index] }];
  },
};
