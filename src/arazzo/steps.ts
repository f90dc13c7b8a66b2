// One Arazzo step as stepfile steps (format section 5):
// - an operation step (operationId / operationPath) is a mechanical step of
//   one call, whose output is `{ outputs, next? }`, with one predicate gate
//   per success criterion over the call's result;
// - a workflowId step inlines that workflow's steps (ids prefixed with the
//   step's), then a mechanical step of no call holding the step's outputs;
// - an interaction step (form mode; the Arazzo 1.2 draft's actor in the
//   loop, OAI/Arazzo-Specification pull request #568) is an agent step whose
//   submission is what the person answered (`payload`, checked against the
//   interaction's inputSchema), behind an approve gate that shows the
//   person the prompt and the output.
// Step Object: OAI/Arazzo-Specification versions/1.0.1.md at fc140d26c440291b0061c62a53e45a8fb07cc369.
import { isObject, resolvePointer, type JsonObject } from "../format/json-pointer.js";
import { actionsOf, checkFailureActions, nextExpression } from "./actions.js";
import { callArguments, withoutCredentialParameters, type ArazzoParameter } from "./arguments.js";
import { criterionExpression, criterionType, type Criterion } from "./criteria.js";
import { translateExpression, type Scope } from "./expressions.js";
import { and, not, or, type Logic } from "./json-logic.js";
import { documentedStatuses, findOperation, type FoundOperation } from "./operations.js";
import { refuse, WorkflowRefused } from "./refusals.js";
import type { SourceState } from "./sources.js";
import { expression } from "./templates.js";
import type { IdPool } from "./names.js";
import { inputsRead } from "./secret-inputs.js";
import { checkSchemeNames } from "./x-security.js";

export interface StepfileStep {
  id: string;
  when?: Logic;
  instructions?: string;
  do?: { calls?: { id: string; operation: string; arguments?: Logic }[]; output: Logic };
  produces: JsonObject;
  gates?: JsonObject[];
  derive?: Record<string, Logic>;
  retries?: number;
}

/** What one stepfile being built holds so far. */
export interface Build {
  ids: IdPool;
  steps: StepfileStep[];
  operations: FoundOperation[];
  /** Parameters that set where a credential goes (a header, query parameter or cookie), which Stepgate fills with the credential it holds instead (arguments.ts). */
  credentialParameters: { workflow: string; step: string; parameter: ArazzoParameter; op: FoundOperation }[];
  /** The converted workflow's inputs those parameters, and x-security, read, in it or in a workflow it inlines (secret-inputs.ts). */
  secretInputs: Set<string>;
}

/** One workflow's steps being converted: the top one, or one inlined by a workflowId step. */
export interface Frame {
  workflow: JsonObject;
  workflowId: string;
  /** The Arazzo document the workflow is in, and its sources: another one's when a workflowId step names a workflow of an Arazzo source. */
  document: JsonObject;
  sources: ReadonlyMap<string, SourceState>;
  input(name: string): Logic;
  /** Prefix of the stepfile ids of this frame's steps (an inlined workflow's are its caller step's). */
  prefix: string;
  /** What must hold for any step of this frame to run (an inlined workflow inherits its caller step's `when`). */
  guard: Logic;
  /** Workflows being inlined, outermost first, to refuse a workflow that runs itself: `workflowId`, or `$sourceDescriptions.<name>.<workflowId>` for another document's. */
  stack: readonly string[];
}

/** Convert a frame's steps into the build; returns the stepfile ids of its Arazzo steps (for its outputs). */
export function convertSteps(frame: Frame, build: Build): Map<string, string> {
  const list = Array.isArray(frame.workflow.steps) ? (frame.workflow.steps as JsonObject[]) : [];
  const arazzoIds = list.map((s) => String(s.stepId));
  const stepfileIds = new Map<string, string>();
  // Each earlier step with success actions, and where its goto/end leaves the steps after it.
  const movers: { id: string; outcomes: string[] }[] = [];
  for (const name of inputsRead([frame.workflow["x-security"], list.map((s) => s["x-security"])], frame.input)) build.secretInputs.add(name);
  checkSchemeNames(frame.workflow["x-security"], { workflow: frame.workflowId }, frame.sources);
  for (const step of list) checkSchemeNames(step["x-security"], { workflow: frame.workflowId, step: String(step.stepId) }, frame.sources);
  for (const [index, step] of list.entries()) {
    const stepId = arazzoIds[index]!;
    // A mover's end skips every later step; its goto, the steps before the target (gotos are forward only, actions.ts).
    const skippedBy = movers.flatMap(({ id, outcomes }) => {
      const skipping = outcomes.filter((o) => o === "end" || arazzoIds.indexOf(o.slice("goto:".length)) > index);
      return skipping.length === 0 ? [] : [{ in: [{ var: `steps.${id}.next` }, skipping] }];
    });
    const when = and([frame.guard, ...(skippedBy.length > 0 ? [not(or(skippedBy))] : [])]);
    const scope: Scope = {
      workflow: frame.workflowId,
      step: stepId,
      input: frame.input,
      stepOutputs: (id) => stepfileIds.get(id),
    };
    unsupportedFields(step, scope);
    let id: string;
    let moves: string[] | undefined;
    if (typeof step.workflowId === "string") ({ id, moves } = workflowStep(step, index, arazzoIds, frame, build, scope, when));
    else if (isObject(step.interaction)) ({ id, moves } = interactionStep(step, index, arazzoIds, frame, build, scope, when));
    else ({ id, moves } = operationStep(step, index, arazzoIds, frame, build, scope, when));
    stepfileIds.set(stepId, id);
    if (moves) movers.push({ id, outcomes: moves });
  }
  return stepfileIds;
}

const REFUSED_FIELDS: Record<string, { reason: string; fix: string }> = {
  onTimeout: {
    reason: "an onTimeout escalation runs other actions when a step takes too long, and a stepfile step has no timer of its own (calls end at --request-timeout-ms, people at --run-idle-ms)",
    fix: "drop onTimeout; the run's own limits then stop a step that waits too long",
  },
  timeout: { reason: "a step timeout is a per-step limit a stepfile does not have", fix: "drop it; --request-timeout-ms bounds every call" },
  onCancel: { reason: "a cancelled interaction has no stepfile branch: a declined approval fails the step", fix: "drop onCancel" },
  dependsOn: { reason: "steps of a stepfile run in file order, not by dependencies", fix: "order the steps so each follows what it depends on, and drop dependsOn" },
  channelPath: { reason: "an AsyncAPI channel is not a stepfile tool", fix: "describe the operation with an OpenAPI document" },
};

function unsupportedFields(step: JsonObject, scope: Scope): void {
  for (const [field, why] of Object.entries(REFUSED_FIELDS)) if (step[field] !== undefined) refuse(scope, field, why.reason, why.fix);
}

/** Workflow-level parameters, then the step's, which override them by name and location; reusable ones resolved. */
function parametersOf(step: JsonObject, workflow: JsonObject, document: JsonObject, scope: Scope): ArazzoParameter[] {
  const out = new Map<string, ArazzoParameter>();
  for (const list of [workflow.parameters, step.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      let p = raw as JsonObject;
      if (isObject(raw) && typeof raw.reference === "string") {
        const m = /^\$components\.parameters\.(.+)$/.exec(raw.reference);
        const target = m ? resolvePointer(document, `#/components/parameters/${m[1]}`) : undefined;
        if (!isObject(target)) refuse(scope, `parameter reference ${raw.reference}`, "it names no parameter in components", "define it under components.parameters");
        p = { ...target, ...("value" in raw ? { value: raw.value } : {}) };
      }
      const param = p as unknown as ArazzoParameter;
      out.set(`${param.in ?? ""}:${param.name}`, param);
    }
  }
  return [...out.values()];
}

function outputsExpression(outputs: unknown, scope: Scope): Logic {
  const pairs = isObject(outputs) ? Object.entries(outputs).map(([name, value]) => [name, expression(value, scope)]) : [];
  return { object: pairs };
}

function stepOutput(outputs: Logic, next: Logic | undefined): Logic {
  return next === undefined ? { object: [["outputs", outputs]] } : { outputs, next };
}

/**
 * One predicate gate per success criterion. A criterion that folds to true
 * (`$statusCode == 200` where 200 is the only success the operation
 * documents) is met by the call having succeeded at all, so it has no gate.
 */
function gatesOf(criteria: unknown, scope: Scope, statusCodes: readonly number[] | undefined): JsonObject[] {
  const list = Array.isArray(criteria) ? (criteria as Criterion[]) : [];
  return list.flatMap((criterion, i) => {
    const predicate = criterionExpression(criterion, { scope, construct: `successCriteria[${i}]`, ...(statusCodes ? { statusCodes } : {}) });
    if (predicate === true) return [];
    return [
      {
        id: `success-${i + 1}`,
        predicate,
        message: `successCriteria[${i}] of Arazzo step ${scope.step ?? ""} does not hold: ${criterionWords(criterion)}`,
      },
    ];
  });
}

function criterionWords(c: Criterion): string {
  const type = criterionType(c);
  if (type === "regex") return `${c.context ?? ""} matches ${c.condition}`;
  if (type === "jsonpath") return `${c.context ?? ""} gives ${c.condition} a match`;
  return c.condition;
}

function operationStep(step: JsonObject, index: number, arazzoIds: string[], frame: Frame, build: Build, scope: Scope, when: Logic): { id: string; moves: string[] | undefined } {
  const op = findOperation(step, frame.sources, scope);
  const { success } = documentedStatuses(op.operation);
  const argumentScope: Scope = { ...scope };
  const responseScope: Scope = { ...scope, responseRoot: "responses.call" };
  const gateScope: Scope = { ...scope, responseRoot: "calls.0.result" };
  const { sent, replaced } = withoutCredentialParameters(op, parametersOf(step, frame.workflow, frame.document, scope));
  const args = callArguments(op, sent, step.requestBody, argumentScope);
  for (const parameter of replaced) {
    build.credentialParameters.push({ step: String(step.stepId), workflow: frame.workflowId, parameter, op });
    for (const name of inputsRead(parameter.value, frame.input)) build.secretInputs.add(name);
  }
  checkFailureActions(actionsOf(step.onFailure, frame.workflow.failureActions, frame.document, scope, "onFailure"), op.method, scope);
  const next = nextExpression(actionsOf(step.onSuccess, frame.workflow.successActions, frame.document, scope, "onSuccess"), index, arazzoIds, responseScope, success);
  const gates = gatesOf(step.successCriteria, gateScope, success);
  const id = build.ids.take(`${frame.prefix}${String(step.stepId)}`);
  build.operations.push(op);
  build.steps.push({
    id,
    ...(when !== true ? { when } : {}),
    do: { calls: [{ id: "call", operation: op.operationId, arguments: args }], output: stepOutput(outputsExpression(step.outputs, responseScope), next?.expr) },
    produces: { type: "object" },
    ...(gates.length > 0 ? { gates } : {}),
  });
  return { id, moves: next?.outcomes };
}

function workflowStep(step: JsonObject, index: number, arazzoIds: string[], frame: Frame, build: Build, scope: Scope, when: Logic): { id: string; moves: string[] | undefined } {
  const target = String(step.workflowId);
  const construct = `workflowId ${target}`;
  const { sub, document, sources, key } = workflowNamed(target, frame, scope, construct);
  const running = [...frame.stack, frame.workflowId];
  if (running.includes(key)) refuse(scope, construct, `workflow ${target} would run itself (${[...running.slice(running.indexOf(key)), key].join(" -> ")}), a loop`, "break the cycle");
  const passed = new Map<string, Logic>();
  for (const p of parametersOf(step, {}, frame.document, scope)) passed.set(p.name, expression(p.value, scope));
  const prefix = `${frame.prefix}${String(step.stepId)}-`;
  let inner: Map<string, string>;
  try {
    inner = convertSteps({ workflow: sub, workflowId: key, document, sources, input: (name) => passed.get(name) ?? null, prefix, guard: when, stack: running }, build);
  } catch (error) {
    // Named from the workflow being converted: this step, then where inside the workflow it runs.
    if (!(error instanceof WorkflowRefused)) throw error;
    const r = error.refusal;
    return refuse(scope, `${construct}, ${r.step !== undefined ? `its step ${r.step}` : "itself"}: ${r.construct}`, r.reason, r.fix);
  }
  const innerScope: Scope = { workflow: target, input: (name) => passed.get(name) ?? null, stepOutputs: (id) => inner.get(id) };
  const subOutputs = isObject(sub.outputs) ? sub.outputs : {};
  const outputsScope: Scope = {
    ...scope,
    workflowOutput: (name) => {
      if (!(name in subOutputs)) refuse(scope, `$outputs.${name}`, `workflow ${target} has no output ${name}`, `name one of its outputs (${Object.keys(subOutputs).join(", ") || "it has none"})`);
      return translateExpression(String(subOutputs[name]), innerScope);
    },
  };
  checkFailureActions(actionsOf(step.onFailure, frame.workflow.failureActions, frame.document, scope, "onFailure"), undefined, scope);
  const next = nextExpression(actionsOf(step.onSuccess, frame.workflow.successActions, frame.document, scope, "onSuccess"), index, arazzoIds, outputsScope, undefined);
  const gates = gatesOf(step.successCriteria, { ...outputsScope, noStatus: `a step that runs workflow ${target} has no response, so no status code, of its own (the workflow's steps check theirs)` }, undefined);
  const id = build.ids.take(`${frame.prefix}${String(step.stepId)}`);
  build.steps.push({
    id,
    ...(when !== true ? { when } : {}),
    do: { output: stepOutput(outputsExpression(step.outputs, outputsScope), next?.expr) },
    produces: { type: "object" },
    ...(gates.length > 0 ? { gates } : {}),
  });
  return { id, moves: next?.outcomes };
}

/**
 * The workflow a workflowId step runs: one of this document's by its plain
 * workflowId, or, as `$sourceDescriptions.<name>.<workflowId>`, one of an
 * Arazzo source's (the Step Object: "If the referenced workflow is contained
 * within an arazzo type sourceDescription, then the workflowId MUST be
 * specified using a Runtime Expression"), run with that document's sources.
 * `key` tells the workflows of different documents apart, for loops.
 */
function workflowNamed(target: string, frame: Frame, scope: Scope, construct: string): { sub: JsonObject; document: JsonObject; sources: ReadonlyMap<string, SourceState>; key: string } {
  const qualified = /^\$sourceDescriptions\.([A-Za-z0-9_-]+)\.(.+)$/.exec(target);
  if (!qualified) {
    const sub = workflowsOf(frame.document).find((w) => w.workflowId === target);
    if (!sub) refuse(scope, construct, "no workflow of this document has that workflowId", "name a workflow of this document, or one of an Arazzo source as $sourceDescriptions.<name>.<workflowId>");
    const key = frame.workflowId.startsWith("$sourceDescriptions.") ? `${frame.workflowId.slice(0, frame.workflowId.lastIndexOf("."))}.${target}` : target;
    return { sub, document: frame.document, sources: frame.sources, key };
  }
  const [, name, id] = qualified as unknown as [string, string, string];
  const state = frame.sources.get(name);
  if (!state) refuse(scope, construct, `no sourceDescription is named ${name}`, "name one of the document's sourceDescriptions");
  if ("problem" in state) refuse(scope, construct, state.problem.reason, state.problem.fix);
  if (!("arazzo" in state)) refuse(scope, construct, `source ${name} is an OpenAPI document, which holds operations, not workflows`, `call its operation with operationId: $sourceDescriptions.${name}.<operationId>`);
  // `$sourceDescriptions.<name>.workflows.<workflowId>` is Respect's other spelling (@redocly/cli 2.77.0), used by Redocly's museum example.
  const sub = workflowsOf(state.arazzo.document).find((w) => w.workflowId === id) ?? workflowsOf(state.arazzo.document).find((w) => `workflows.${String(w.workflowId)}` === id);
  if (!sub) refuse(scope, construct, `source ${name} (${state.arazzo.location}) has no workflow ${id}`, `name one of its workflows (${workflowsOf(state.arazzo.document).map((w) => String(w.workflowId)).join(", ") || "it has none"})`);
  return { sub, document: state.arazzo.document, sources: state.arazzo.sources, key: `$sourceDescriptions.${name}.${id}` };
}

function workflowsOf(document: JsonObject): JsonObject[] {
  return Array.isArray(document.workflows) ? (document.workflows as JsonObject[]).filter(isObject) : [];
}

function interactionStep(step: JsonObject, index: number, arazzoIds: string[], frame: Frame, build: Build, scope: Scope, when: Logic): { id: string; moves: string[] | undefined } {
  const interaction = step.interaction as JsonObject;
  const mode = typeof interaction.mode === "string" ? interaction.mode : "form";
  if (mode !== "form") {
    refuse(scope, `interaction (mode ${mode})`, `a ${mode} interaction waits for something outside the conversation (a redirect or an acknowledgement), which a stepfile step cannot watch`, "use form mode, whose answer the agent submits and the person approves");
  }
  if (typeof interaction.prompt !== "string" || interaction.prompt.trim() === "") refuse(scope, "interaction", "it has no prompt", "give the prompt the person is shown");
  if (step.successCriteria !== undefined) refuse(scope, "successCriteria", "an interaction step's answer is checked by its inputSchema and the person's approval", "drop the criteria, or express them in inputSchema");
  const prompt = interaction.prompt.trim();
  const payloadRoot: Scope = { ...scope, interactionRoot: "output.payload" };
  checkFailureActions(actionsOf(step.onFailure, frame.workflow.failureActions, frame.document, scope, "onFailure"), undefined, scope);
  const next = nextExpression(actionsOf(step.onSuccess, frame.workflow.successActions, frame.document, scope, "onSuccess"), index, arazzoIds, payloadRoot, undefined);
  const derive: Record<string, Logic> = {};
  if (isObject(step.outputs)) derive.outputs = outputsExpression(step.outputs, payloadRoot);
  if (next !== undefined) derive.next = next.expr;
  const inputSchema = isObject(interaction.inputSchema) ? interaction.inputSchema : { type: "object" };
  const id = build.ids.take(`${frame.prefix}${String(step.stepId)}`);
  build.steps.push({
    id,
    ...(when !== true ? { when } : {}),
    instructions: [
      "Ask the person you are working for, in their own words, and wait for their answer:",
      "",
      prompt,
      ...contextLines(interaction.context, scope),
      "",
      "Submit exactly what they answered as `payload`. They will be asked to approve it before the run goes on.",
    ].join("\n"),
    produces: {
      type: "object",
      properties: { payload: inputSchema, ...(derive.outputs ? { outputs: { type: "object" } } : {}), ...(next !== undefined ? { next: { type: "string" } } : {}) },
      required: ["payload"],
    },
    ...(Object.keys(derive).length > 0 ? { derive } : {}),
    // An answer that misses a field of inputSchema, or that the person declines, gets asked again, not the run stopped.
    retries: 2,
    gates: [{ id: "approved", approve: { message: prompt } }],
  });
  return { id, moves: next?.outcomes };
}

/** The interaction's context, shown with the step: runtime expressions as placeholders the runtime fills in. */
function contextLines(context: unknown, scope: Scope): string[] {
  if (context === undefined) return [];
  const entries = isObject(context) ? Object.entries(context) : [["context", context] as const];
  const lines = ["", "What they need to know:"];
  for (const [name, value] of entries) {
    if (typeof value === "string" && value.trim().startsWith("$")) {
      const expr = translateExpression(value, scope) as { var?: unknown };
      if (!isObject(expr) || typeof expr.var !== "string" || !/^(inputs|steps)(\.|$)/.test(expr.var)) {
        refuse(scope, `interaction.context.${name}`, `${value} is not a value a placeholder can show (inputs and earlier steps' outputs are)`, "show an input or an earlier step's output");
      }
      lines.push(`- ${name}: {{${expr.var}}}`);
    } else lines.push(`- ${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  return lines;
}
