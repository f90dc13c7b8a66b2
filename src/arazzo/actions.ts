// onSuccess / onFailure (and the workflow's successActions / failureActions,
// which steps may override by name but not remove), per the Success Action
// and Failure Action Objects of OAI/Arazzo-Specification versions/1.0.1.md
// at fc140d26c440291b0061c62a53e45a8fb07cc369.
//
// A stepfile runs its steps in order, each skipped unless its `when` holds
// (format section 5), so:
// - a success action `end`, or a forward `goto`, becomes the step's `next`
//   (computed in its output: "end", "goto:<stepId>" or "next", the first
//   action whose criteria hold, as the specification orders them), and every
//   later step it passes over gets a `when` that reads it;
// - a failure action `end` is what a failed step does anyway: the run stops;
// - a failure action `retry` whose criteria pick only statuses the runtime
//   already retries for that method (429 always; 5xx for GET, HEAD, OPTIONS,
//   PUT, DELETE) means what the runtime's retry rules do (seed, "Retries"),
//   so it converts to them;
// - a backward `goto` is a loop, a failure `goto` a branch the run cannot
//   take after a failed step, a `goto` to a workflow a transfer: refused.
import { isObject, resolvePointer, type JsonObject } from "../format/json-pointer.js";
import { criteriaExpression, statusesWhere, type Criterion } from "./criteria.js";
import type { Scope } from "./expressions.js";
import type { Logic } from "./json-logic.js";
import { refuse } from "./refusals.js";

export interface Action {
  name: string;
  type: string;
  stepId?: string;
  workflowId?: string;
  criteria?: Criterion[];
  retryAfter?: number;
  retryLimit?: number;
}

/** Step actions first, then the workflow's that the step does not override by name; reusable references resolved. */
export function actionsOf(stepList: unknown, workflowList: unknown, document: JsonObject, scope: Scope, field: string): { action: Action; construct: string }[] {
  const own = resolved(stepList, document, scope, field);
  const inherited = resolved(workflowList, document, scope, field === "onSuccess" ? "successActions" : "failureActions");
  const names = new Set(own.map((a) => a.action.name));
  return [...own, ...inherited.filter((a) => !names.has(a.action.name))];
}

function resolved(list: unknown, document: JsonObject, scope: Scope, field: string): { action: Action; construct: string }[] {
  if (!Array.isArray(list)) return [];
  return list.map((raw, i) => {
    let action = raw as JsonObject;
    if (isObject(raw) && typeof raw.reference === "string") {
      const m = /^\$components\.(successActions|failureActions)\.(.+)$/.exec(raw.reference);
      const target = m ? resolvePointer(document, `#/components/${m[1]}/${m[2]}`) : undefined;
      if (!isObject(target)) refuse(scope, `${field}[${i}] (reference ${raw.reference})`, "it names no action in components", "define the action under components");
      action = target;
    }
    const a = action as unknown as Action;
    return { action: a, construct: `${field}[${i}] (${a.type} ${a.name})` };
  });
}

/** The step's `next` as an expression with the outcomes it can give, or undefined when it has no success action that can change the order. */
export function nextExpression(
  actions: readonly { action: Action; construct: string }[],
  stepIndex: number,
  stepIds: readonly string[],
  scope: Scope,
  statusCodes: readonly number[] | undefined,
): { expr: Logic; outcomes: string[] } | undefined {
  if (actions.length === 0) return undefined;
  const branches: Logic[] = [];
  const outcomes: string[] = [];
  for (const { action, construct } of actions) {
    let outcome: string;
    if (action.type === "end") outcome = "end";
    else if (action.type === "goto") {
      if (action.workflowId !== undefined) {
        refuse(scope, construct, `a goto to workflow ${action.workflowId} transfers control to another workflow for good, which a linear stepfile cannot`, "make that workflow a later step of this one (a workflowId step), guarded by the same criteria");
      }
      const target = stepIds.indexOf(action.stepId ?? "");
      if (target === -1) refuse(scope, construct, `no step of this workflow has stepId ${action.stepId ?? ""}`, "name a step of this workflow");
      if (target <= stepIndex) {
        refuse(scope, construct, `it goes back to step ${action.stepId!}, a loop, and stepfile steps run once each in order`, "unroll the loop into steps that follow each other, or run the workflow again from the client");
      }
      outcome = `goto:${action.stepId!}`;
    } else return refuse(scope, construct, `a success action of type ${action.type} is not one Arazzo defines`, "use end or goto");
    const when = criteriaExpression(action.criteria ?? [], { scope, construct: `${construct}.criteria`, ...(statusCodes ? { statusCodes } : {}) });
    if (when === false) continue;
    outcomes.push(outcome);
    if (when === true) {
      branches.push(outcome);
      break;
    }
    branches.push(when, outcome);
  }
  if (branches.length === 0) return undefined;
  if (branches.length % 2 === 0) branches.push("next");
  return { expr: branches.length === 1 ? branches[0] : { if: branches }, outcomes };
}

const RETRIED_5XX = new Set(["get", "head", "options", "put", "delete"]);

/** Check failure actions: only those whose meaning a stepfile keeps pass; see the file's opening comment. */
export function checkFailureActions(actions: readonly { action: Action; construct: string }[], method: string | undefined, scope: Scope): void {
  for (const { action, construct } of actions) {
    if (action.type === "end") continue;
    if (action.type === "goto") {
      refuse(
        scope,
        construct,
        "a step whose criteria fail stops a stepfile run (GateFailed), and the response of a failed call is not kept for a later step to branch on",
        "make the failure a success outcome: criteria the step always meets, with onSuccess actions that read the response",
      );
    }
    if (action.type !== "retry") refuse(scope, construct, `a failure action of type ${action.type} is not one Arazzo defines`, "use end, retry or goto");
    if (action.stepId !== undefined || action.workflowId !== undefined) {
      refuse(scope, construct, "a retry that first runs another step or workflow is a loop", "drop the stepId or workflowId, so only this step's call is retried");
    }
    // The statuses the criteria select, whatever they are written with (`== 503`, `>= 500`, `||`, `&&`); only 429 and an idempotent method's 5xx are retried by the runtime.
    const statuses = statusesWhere(action.criteria ?? [], { scope, construct: `${construct}.criteria` });
    const retried = (s: number) => s === 429 || (method !== undefined && s >= 500 && s <= 599 && RETRIED_5XX.has(method));
    if (!statuses || statuses.length === 0 || !statuses.every(retried)) {
      refuse(
        scope,
        construct,
        `a stepfile retries a call only on 429, and on 5xx for GET, HEAD, OPTIONS, PUT and DELETE (the runtime's retry rules); this retry ${statuses && statuses.length > 0 ? `is for ${statusRanges(statuses)} on ${method?.toUpperCase() ?? "a workflow"}` : "has criteria other than those statuses, or none"}`,
        "limit its criteria to $statusCode == 429 (or a 5xx of an idempotent method), which the runtime retries itself, or drop it",
      );
    }
  }
}

/** `400-599`, `429, 503`: consecutive codes as ranges, so `$statusCode >= 400` is not two hundred numbers. */
function statusRanges(codes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < codes.length; ) {
    let j = i;
    while (j + 1 < codes.length && codes[j + 1] === codes[j]! + 1) j++;
    parts.push(j > i ? `${codes[i]!}-${codes[j]!}` : String(codes[i]!));
    i = j + 1;
  }
  return parts.join(", ");
}
