// A write the agent chooses: an operation that changes something (POST,
// PUT, PATCH, DELETE, unless its exposes entry says `effect: read`) listed
// in an agent step's `tools`. Stepgate makes the call, but the agent picks
// the arguments and how many times, and every call is made before any gate
// of the step looks at anything: an approve gate on the same step asks the
// person after the write has happened. Gated, the write is a mechanical
// step after the step a person approves, its arguments computed from the
// approved output. Known only for operations of OpenAPI documents the
// stepfile holds (an MCP tool does not say at load whether it changes
// anything).
import { gateKind, type StepfileDocument } from "../format/types.js";
import type { RawIssue } from "./raw-issue.js";
import type { InlineOperation } from "./response-schemas.js";

const READS: ReadonlySet<string> = new Set(["get", "head", "options", "trace"]);

export function agentWrites(doc: StepfileDocument, operations: ReadonlyMap<string, InlineOperation>): RawIssue[] {
  const declaredReads = new Set<string>();
  for (const tool of Object.values(doc.tools ?? {})) {
    for (const exposed of tool.exposes ?? []) if (typeof exposed === "object" && exposed.effect === "read") declaredReads.add(exposed.name);
  }
  const issues: RawIssue[] = [];
  doc.steps.forEach((step, si) => {
    if (step.do) return;
    const approvals = (step.gates ?? []).filter((g) => gateKind(g) === "approve").map((g) => g.id);
    (step.tools ?? []).forEach((name, ti) => {
      const op = operations.get(name);
      if (!op || READS.has(op.method) || declaredReads.has(name)) return;
      const method = op.method.toUpperCase();
      const asked = approvals.length > 0 ? `, and ${approvals.length === 1 ? `the approve gate ${approvals[0]} asks` : `the approve gates ${approvals.join(", ")} ask`} the person only after those calls are made` : "";
      const after = approvals.length > 0 ? `a mechanical step after ${step.id}` : `a mechanical step after ${step.id} (with an approve gate on ${step.id} if a person must agree first)`;
      issues.push({
        path: ["steps", si, "tools", ti],
        message:
          `${name} (${method} ${op.path}) changes something, and step ${step.id}'s agent may call it with any arguments, any number of times, before any gate of the step runs${asked}; ` +
          `to gate the write, take ${name} out of tools and call it from ${after}, with arguments computed from the approved output ` +
          `(do: { calls: [{ id: ..., operation: ${name}, arguments: { ...: { var: steps.${step.id}.<field> } } }] }); if it changes nothing (a search sent as ${method}), declare { name: ${name}, effect: read } in exposes`,
      });
    });
  });
  return issues;
}
