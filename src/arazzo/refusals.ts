// What a linear stepfile cannot mean, said once per construct: the workflow,
// the step (when there is one), the construct, why, and what would make it
// convertible. A refusal stops only its own workflow; the others of the
// document still convert (issue 30, deliverable 3).
//
// The constructs named here are the Arazzo Specification's (OAI/Arazzo-Specification,
// versions/1.0.1.md at commit fc140d26c440291b0061c62a53e45a8fb07cc369).

export interface Refusal {
  workflow: string;
  /** The Arazzo stepId, or undefined for a workflow-level construct. */
  step?: string;
  /** Where in the workflow or step, like `onSuccess[1] (goto qualifyingProductsFound)` or `successCriteria[0]`. */
  construct: string;
  /** Why a stepfile cannot mean it. */
  reason: string;
  /** What would make it convertible. */
  fix: string;
}

/** Thrown while converting one workflow; caught by the converter, which records it and goes on. */
export class WorkflowRefused extends Error {
  override readonly name = "WorkflowRefused";
  constructor(readonly refusal: Refusal) {
    super(refusalLine(refusal));
  }
}

/** Where the refusal happens, for messages: `workflow W, step S, construct C`. */
export interface Place {
  workflow: string;
  step?: string;
}

export function refuse(place: Place, construct: string, reason: string, fix: string): never {
  throw new WorkflowRefused({ workflow: place.workflow, ...(place.step !== undefined ? { step: place.step } : {}), construct, reason, fix });
}

/** One line a person reads: `workflow W, step S: C: reason; to convert it, fix`. */
export function refusalLine(r: Refusal): string {
  const where = r.step !== undefined ? `workflow ${r.workflow}, step ${r.step}` : `workflow ${r.workflow}`;
  return `${where}: ${r.construct}: ${r.reason}; to convert it, ${r.fix}`;
}
