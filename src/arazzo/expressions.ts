// Arazzo runtime expressions (`$inputs.x`, `$steps.s.outputs.y#/0/id`,
// `$response.body#/pointer`, `$statusCode`, ...) turned into the stepfile
// expression language. The syntax is the ABNF of the Arazzo Specification,
// "Runtime Expressions" (OAI/Arazzo-Specification, versions/1.0.1.md, commit
// fc140d26c440291b0061c62a53e45a8fb07cc369); `$interaction.payload` is the
// 1.2 draft's (OAI/Arazzo-Specification pull request #568).
//
// What a stepfile cannot read is refused here, once: response headers,
// the request, `$url`, `$method`, other workflows' values.
import { unescapePointerToken } from "../format/json-pointer.js";
import { path, type Logic } from "./json-logic.js";
import { refuse, type Place } from "./refusals.js";

/** Where each kind of runtime expression reads from, at the place being converted. */
export interface Scope extends Place {
  /** `$inputs.<name>`: the top workflow reads `inputs.<name>`; an inlined workflow, the value its caller passed. */
  input(name: string): Logic;
  /** The stepfile step id that holds an Arazzo step's outputs, or undefined when no earlier step has that id. */
  stepOutputs(stepId: string): string | undefined;
  /** The data path of `$response.body` here (`responses.call` in a template, `calls.0.result` in a gate), when a response exists. */
  responseRoot?: string;
  /** `$outputs.<name>` in a workflowId step's outputs: that workflow's outputs. */
  workflowOutput?(name: string): Logic;
  /** The data path of `$interaction.payload` in an interaction step. */
  interactionRoot?: string;
  /** What `$statusCode` is here: the caller folds it (criteria.ts), so elsewhere it is refused. */
  statusCode?: Logic;
  /** Why there is no status here, when it is not the usual reason (a workflowId step has no response of its own). */
  noStatus?: string;
}

export const EXPRESSION_START = /^\$(inputs|steps|response|request|statusCode|url|method|outputs|workflows|sourceDescriptions|components|interaction)\b/;

export function isRuntimeExpression(value: unknown): value is string {
  return typeof value === "string" && EXPRESSION_START.test(value.trim());
}

/** A JSON Pointer's tokens (`#/a/0/b~1c` → a, 0, b/c); array indexes stay strings, which `var` and `get` read alike. */
export function pointerTokens(pointer: string, scope: Scope, expression: string): (string | number)[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) {
    refuse(scope, `the runtime expression ${expression}`, `its part after # is not a JSON Pointer (RFC 6901 pointers start with /)`, "write the pointer as #/name/0/...");
  }
  return pointer
    .slice(1)
    .split("/")
    .map((t) => {
      const token = unescapePointerToken(t);
      return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : token;
    });
}

/** One runtime expression as an expression over the stepfile's data. */
export function translateExpression(raw: string, scope: Scope): Logic {
  const expression = raw.trim();
  const hash = expression.indexOf("#");
  const head = hash === -1 ? expression : expression.slice(0, hash);
  const pointer = hash === -1 ? [] : pointerTokens(expression.slice(hash + 1), scope, expression);
  const construct = `the runtime expression ${expression}`;
  // `posts[0].id` after a name, as Jentic's cookbook writes it (`$steps.fetchPosts.outputs.posts[0].id`), is `posts.0.id`: an index can mean nothing else.
  const dotted = head.replace(/\[(0|[1-9][0-9]*)\]/g, ".$1").split(".");
  switch (dotted[0]) {
    case "$inputs": {
      if (dotted.length < 2 || dotted[1] === "") refuse(scope, construct, "it names no input", "name the input, as $inputs.<name>");
      const input = scope.input(dotted[1]!);
      return deeper(input, [...dotted.slice(2), ...pointer]);
    }
    case "$steps": {
      // `$steps.<id>.outputs` alone is the step's whole outputs map (jentic-community/arazzo-engine-cookbook at 47afafb returns it as a workflow output).
      const [, stepId, kind, ...names] = dotted;
      if (kind !== "outputs" || names.some((n) => n === "")) {
        refuse(scope, construct, `a step is read through its outputs`, `write $steps.${stepId ?? "<stepId>"}.outputs.<name>`);
      }
      const id = stepId === undefined ? undefined : scope.stepOutputs(stepId);
      if (id === undefined) refuse(scope, construct, `no earlier step of this workflow has stepId ${stepId ?? ""}`, "name an earlier step");
      return path("steps", [id, "outputs", ...names, ...pointer]);
    }
    case "$response": {
      if (dotted[1] === "body") {
        if (scope.responseRoot === undefined) refuse(scope, construct, "there is no response here", "read the value from a step's outputs");
        const [root, ...keys] = scope.responseRoot.split(".");
        // `$response.body.id`, as `$inputs.x.y` is read: not the ABNF's body-reference (`body#/id`), but what
        // Jentic's and Respect's runners read it as, and it can mean nothing else (jentic-community/arazzo-engine-cookbook at 47afafb).
        if (dotted.slice(2).some((k) => k === "")) refuse(scope, construct, "it has an empty name after a dot", "use $response.body#/<pointer>");
        return path(root!, [...keys, ...dotted.slice(2), ...pointer]);
      }
      if (dotted[1] === "header") {
        refuse(scope, construct, "a stepfile's calls keep the response body only, so a response header cannot be read", "have the API return the value in its body, or drop this output or criterion");
      }
      return refuse(scope, construct, "it is not a response body or header reference", "use $response.body or $response.body#/<pointer>");
    }
    case "$statusCode":
      if (scope.statusCode === undefined) {
        refuse(scope, construct, scope.noStatus ?? "a stepfile's calls keep the response body only; the status is known only as success or failure", scope.noStatus ? "drop the criterion, or check the workflow's outputs" : "read a value from the response body instead");
      }
      return scope.statusCode;
    case "$outputs": {
      if (!scope.workflowOutput || dotted[1] === undefined) {
        refuse(scope, construct, "$outputs is read only in the outputs of a step that runs a workflow", "read the step's outputs with $steps.<stepId>.outputs.<name>");
      }
      return deeper(scope.workflowOutput(dotted[1]), [...dotted.slice(2), ...pointer]);
    }
    case "$interaction": {
      if (dotted[1] !== "payload" || dotted.length !== 2 || scope.interactionRoot === undefined) {
        refuse(scope, construct, "only $interaction.payload of an interaction step's own answer can be read", "read it in the interaction step's outputs, as $interaction.payload#/<pointer>");
      }
      return path(scope.interactionRoot, pointer);
    }
    default:
      return refuse(
        scope,
        construct,
        `a stepfile has no value for ${dotted[0]}${dotted[1] ? `.${dotted[1]}` : ""} (it keeps inputs, earlier steps' outputs and the response body)`,
        "pass the value as a workflow input or read it from an earlier step's outputs",
      );
  }
}

/** Further keys below an expression: a `var` path grows, anything else is read with `get`. */
function deeper(base: Logic, keys: readonly (string | number)[]): Logic {
  if (keys.length === 0) return base;
  if (isVar(base)) {
    const [root, ...rest] = base.var.split(".");
    return path(root!, [...rest, ...keys]);
  }
  let expr = base;
  for (const key of keys) expr = { get: [expr, key] };
  return expr;
}

function isVar(value: Logic): value is { var: string } {
  return value !== null && typeof value === "object" && Object.keys(value).length === 1 && typeof (value as { var?: unknown }).var === "string";
}

/** Runtime expressions embedded in a string with braces (`"Bearer {$inputs.token}"`), per the specification's last paragraph on them. */
export function translateEmbedded(text: string, scope: Scope): Logic {
  const whole = /^\{(\$[^{}]+)\}$/.exec(text.trim());
  if (whole) return translateExpression(whole[1]!, scope);
  const parts: Logic[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\$[^{}]+)\}/g)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(translateExpression(m[1]!, scope));
    last = m.index + m[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return { cat: parts };
}

/** A value that may be a runtime expression, or a string with some embedded, or a constant. */
export function translateValue(value: unknown, scope: Scope): { expr: Logic; constant: boolean } {
  if (isRuntimeExpression(value)) return { expr: translateExpression(value, scope), constant: false };
  if (typeof value === "string" && /\{\$[^{}]+\}/.test(value)) return { expr: translateEmbedded(value, scope), constant: false };
  return { expr: value, constant: true };
}
