// The path walk: what each literal `var` path of a stepfile reads, walked
// once through the schemas that say what it can hold, for the rules that
// judge it (src/loader/rules/): `undeclared-path` (a literal path into
// inputs, an earlier step's output or this step's output naming a property
// its schema does not declare, so it would be null at run time, and a path
// read through `results`, `calls[].result`, a tool's `select`, or, in a
// mechanical step's templates, `responses.<id>` and `item`, that the
// operation's response schemas rule out or do not document;
// src/loader/schema-views.ts says when), `step-data-in-item-scope`
// (`output.`, `inputs.`, `steps.` or `let.` read inside an iterating
// operator's item scope, where `var` reads the current item instead) and
// `call-arguments` (a mechanical call's arguments that its inline OpenAPI
// operation would refuse, src/loader/argument-warnings.ts, which needs the
// types the walk knows). One walk feeds the three, as ESLint's scope
// analysis is computed once for every rule that reads it; each finding
// carries its rule's id. An earlier mechanical step's output is known from
// its `output` template, merged with its `produces`.
import { templateKind } from "../expr/template.js";
import { closestNames } from "../format/closest-names.js";
import { findPlaceholders, isPlaceholder } from "../format/placeholders.js";
import type { RawIssue } from "./raw-issue.js";
import type { PathSegment } from "../format/source.js";
import type { StepDef, StepfileDocument } from "../format/types.js";
import { ArgumentChecker } from "./argument-warnings.js";
import type { OperationInputs } from "./operation-inputs.js";
import type { LocatedSchema, OperationResponses } from "./response-schemas.js";
import { AuthorView, ListView, MergedView, RecordView, ResponseView, UNDECLARED, viewOf, type Member, type SchemaView } from "./schema-views.js";

type Schema = Record<string, unknown>;
const ITERATIONS = new Set(["map", "filter", "reduce", "all", "some", "none"]);
const STEP_DATA = new Set(["output", "inputs", "steps", "let", "calls"]);

/**
 * What `var` reads at a point of an expression: the step data, or an item of
 * which something may be known (an iteration's item, or the result a tool's
 * `select` reads, marked `result`).
 */
type Scope = { kind: "top" } | { kind: "item"; operator: string; view?: SchemaView; result?: true };

/** What a value computes to, by operator, where no schema says more. */
const RESULT_TYPES: Record<string, string> = {
  cat: "string", substr: "string", lower: "string", host: "string", time_add: "string",
  length: "integer", "+": "number", "-": "number", "*": "number", "/": "number", "%": "number", min: "number", max: "number", time_diff: "number",
  "==": "boolean", "===": "boolean", "!=": "boolean", "!==": "boolean", "!": "boolean", "!!": "boolean", "<": "boolean", "<=": "boolean", ">": "boolean", ">=": "boolean", in: "boolean", subset: "boolean", all: "boolean", some: "boolean", none: "boolean",
  map: "array", filter: "array", unique: "array", difference: "array", flatten: "array", match_all: "array", sort_by: "array", merge: "array", keys: "array", join: "array",
  object: "object", assign: "object",
};

/** The rule ids the walk reports under (each rule's file says what it finds). */
export const UNDECLARED_PATH = "undeclared-path";
export const STEP_DATA_IN_ITEM_SCOPE = "step-data-in-item-scope";
export const CALL_ARGUMENTS = "call-arguments";
export const UNRESOLVABLE_PLACEHOLDER = "unresolvable-placeholder";

/** How one finding of `check` is worded, and under which rule. */
interface CheckOptions {
  rule?: string;
  /** What happens at run time; given whether the schema is closed there. */
  outcome?: string | ((closed: boolean) => string);
  /** How a list's items are read, for the map advice. */
  read?: (list: string) => string;
  /** How a suggested path is written (a placeholder: in braces). */
  suggest?: (path: string) => string;
  /** How the path is quoted at the start of the message. */
  quoted?: string;
}

/** What the file's OpenAPI documents say of each exposed operation (inline ones, and fetched ones placed inline by the caller), and the listed MCP servers of their tools' results. */
export interface OperationFacts {
  responses: ReadonlyMap<string, OperationResponses>;
  inputs: ReadonlyMap<string, OperationInputs>;
}

export function walkPaths(doc: StepfileDocument, operations: OperationFacts): RawIssue[] {
  const warnings: RawIssue[] = [];
  const defs = (doc.$defs ?? {}) as Record<string, Schema>;
  const produces = new Map<string, Schema>();
  const outputs = new Map<string, SchemaView>();
  const { responses, inputs } = operations;
  const known: Known = { defs, inputs, produces, outputs, responses };
  doc.steps.forEach((step, si) => {
    produces.set(step.id, step.produces);
    const walker = new Walker(doc, known, step, warnings);
    const at: PathSegment[] = ["steps", si];
    if (step.when !== undefined) walker.walk(step.when, [...at, "when"], { kind: "top" });
    if (step.do) {
      // Templates over { inputs, steps, responses } (and item in an each's arguments).
      const checker = new ArgumentChecker(inputs, (e) => walker.declaredTypes(e), warnings);
      step.do.calls?.forEach((call, ci) => {
        if (call.each !== undefined) walker.walkTemplate(call.each, [...at, "do", "calls", ci, "each"]);
        walker.eachItems = call.each === undefined ? undefined : walker.templateView(call.each, "each")?.items();
        if (call.arguments !== undefined) walker.walkTemplate(call.arguments, [...at, "do", "calls", ci, "arguments"]);
        checker.check(call, [...at, "do", "calls", ci]);
        walker.eachItems = undefined;
      });
      walker.walkTemplate(step.do.output, [...at, "do", "output"]);
      const computed = walker.templateView(step.do.output, `the output template of step ${step.id}`);
      if (computed) outputs.set(step.id, computed);
      // Its gates run after its calls, over its computed output and those calls.
      walker.inGates = true;
    } else {
      if (step.instructions !== undefined) walker.placeholders(step.instructions, [...at, "instructions"]);
      for (const [name, expr] of Object.entries(step.let ?? {})) walker.walk(expr, [...at, "let", name], { kind: "top" });
      for (const [key, expr] of Object.entries(step.derive ?? {})) walker.walk(expr, [...at, "derive", key], { kind: "top" });
    }
    (step.gates ?? []).forEach((gate, gi) => {
      if (gate.predicate === undefined) return;
      walker.walk(gate.predicate, [...at, "gates", gi, "predicate"], { kind: "top" });
      if (gate.explain !== undefined) walker.walk(gate.explain, [...at, "gates", gi, "explain"], { kind: "top" });
    });
  });
  // A tool's select reads the operation's parsed result (an error result is shown whole, never selected).
  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    (tool.exposes ?? []).forEach((exposed, i) => {
      if (typeof exposed === "string" || exposed.select === undefined) return;
      const declared = responses.get(exposed.name);
      if (!declared?.success) return;
      const view = new ResponseView(declared.success, schemaName(exposed.name, declared));
      new Walker(doc, known, SELECT_STEP, warnings).walk(exposed.select, ["tools", toolId, "exposes", i, "select"], { kind: "item", operator: "select", view, result: true });
    });
  }
  return warnings;
}

/** What the walk knows of the file: its $defs, each step's produces, each earlier mechanical step's computed output, each operation's responses. */
interface Known {
  defs: Record<string, Schema>;
  inputs: ReadonlyMap<string, OperationInputs>;
  produces: ReadonlyMap<string, Schema>;
  outputs: ReadonlyMap<string, SchemaView>;
  responses: ReadonlyMap<string, OperationResponses>;
}

/** A select is in no step: its walk reads the result alone. */
const SELECT_STEP: StepDef = { id: "", produces: {} };

class Walker {
  /** While a call with each is walked: what is known of its items (`item`). */
  eachItems: SchemaView | undefined;
  /** While a mechanical step's gates are walked: they read { inputs, steps, output, calls }, not its templates' data. */
  inGates = false;
  private readonly defs: Record<string, Schema>;
  private readonly produces: ReadonlyMap<string, Schema>;
  private readonly responses: ReadonlyMap<string, OperationResponses>;

  constructor(
    private readonly doc: StepfileDocument,
    private readonly known: Known,
    private readonly step: StepDef,
    private readonly warnings: RawIssue[],
  ) {
    this.defs = known.defs;
    this.produces = known.produces;
    this.responses = known.responses;
  }

  /** What a template computes: exact for its plain objects, what its expressions read otherwise. */
  templateView(node: unknown, what: string): SchemaView | undefined {
    const kind = templateKind(node);
    if (kind === "expression") return this.valueView(node, { kind: "top" }, what);
    if (kind === "array") return new ListView(undefined, what);
    if (kind !== "object") return undefined;
    const fields: Record<string, SchemaView | undefined> = {};
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) fields[key] = this.templateView(value, what);
    return new RecordView(fields, what);
  }

  /** The types a template expression is declared with (from a schema it reads, or its operator), for the argument checks. */
  declaredTypes(expression: unknown): { types: string[]; from: string } | undefined {
    const [name] = Object.keys(expression as object);
    if (name === "var") {
      const view = this.valueView(expression, { kind: "top" });
      const types = view?.types?.();
      return view && types ? { types, from: `as ${view.what} declares it` } : undefined;
    }
    const type = RESULT_TYPES[name!];
    return type ? { types: [type], from: `what ${name} gives` } : undefined;
  }

  /** A mechanical step's template: its expressions are walked, its literals and plain members are not expressions. */
  walkTemplate(node: unknown, at: PathSegment[]): void {
    const kind = templateKind(node);
    if (kind === "expression") this.walk(node, at, { kind: "top" });
    else if (kind === "array") (node as unknown[]).forEach((item, i) => this.walkTemplate(item, [...at, i]));
    else if (kind === "object") for (const [key, value] of Object.entries(node as Record<string, unknown>)) this.walkTemplate(value, [...at, key]);
  }

  walk(node: unknown, at: PathSegment[], scope: Scope): void {
    if (Array.isArray(node)) {
      node.forEach((item, i) => this.walk(item, [...at, i], scope));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const keys = Object.keys(node);
    if (keys.length !== 1) return;
    const name = keys[0]!;
    const value = (node as Record<string, unknown>)[name];
    const args = Array.isArray(value) ? value : [value];
    const argAt = (i: number) => (Array.isArray(value) ? [...at, name, i] : [...at, name]);
    if (name === "var" && typeof args[0] === "string") this.path(args[0], argAt(0), scope);
    if (name === "results" && typeof args[0] === "string" && typeof args[1] === "string") {
      const view = this.resultsView(args[0]);
      if (view) this.check(view, splitPath(args[1]), args[1], argAt(1), "", { outcome: "results would give nothing from it", read: (list) => `{ results: [${String(args[0])}, ${list}] }` });
    }
    if (ITERATIONS.has(name)) {
      this.walk(args[0], argAt(0), scope);
      const item = this.itemView(args[0], scope);
      const view = name === "reduce" ? new RecordView({ current: item, accumulator: undefined }, "reduce's item (current, accumulator)") : item;
      this.walk(args[1], argAt(1), { kind: "item", operator: name, ...(view ? { view } : {}) });
      args.slice(2).forEach((arg, i) => this.walk(arg, argAt(i + 2), scope));
      return;
    }
    args.forEach((arg, i) => this.walk(arg, argAt(i), scope));
  }

  private path(path: string, at: PathSegment[], scope: Scope): void {
    const segments = splitPath(path);
    if (scope.kind === "item") {
      const declared = viewOf(scope.view?.next(segments[0] ?? ""));
      if (STEP_DATA.has(segments[0] ?? "") && !declared && !scope.result) {
        this.warnings.push({
          rule: STEP_DATA_IN_ITEM_SCOPE,
          path: at,
          message: `"${path}" is read inside ${scope.operator}'s item scope, where var reads the current item, not the step data, so it is not ${segments[0]}.${segments.slice(1).join(".")}; compute it outside the iteration (in let), join the two lists first (then read left. and right.), or carry it in through reduce's accumulator`,
        });
        return;
      }
      if (scope.view) this.check(scope.view, segments, path, at);
      return;
    }
    const [head, ...rest] = segments;
    if (head === "inputs" || (this.readsStepData && (head === "output" || head === "calls"))) this.check(this.topView(head), rest, path, at, head);
    else if (head === "steps" && rest[0] !== undefined && this.produces.has(rest[0]) && rest[0] !== this.step.id) {
      this.check(this.stepView(rest[0]), rest.slice(1), path, at, `steps.${rest[0]}`);
    } else if (head === "responses" && rest[0] !== undefined && this.step.do && !this.inGates) {
      const view = this.responseView(rest[0]);
      if (view) this.check(view, rest.slice(1), path, at, `responses.${rest[0]}`);
    } else if (head === "item" && this.eachItems) this.check(this.eachItems, rest, path, at, "item");
  }

  /**
   * `{{inputs.<path>}}` and `{{steps.<id>.<path>}}` in instructions: a name
   * nothing declares has no value when the step starts, and the run fails
   * with PlaceholderUnresolved (after any mechanical steps before it ran).
   */
  placeholders(text: string, at: PathSegment[]): void {
    for (const p of findPlaceholders(text)) {
      if (!isPlaceholder(p)) continue;
      const outcome = (closed: boolean) =>
        `${closed ? "it will have no value" : "unless it is there anyway, it has no value"}, and the run fails with PlaceholderUnresolved when step ${this.step.id} starts`;
      const options: CheckOptions = { rule: UNRESOLVABLE_PLACEHOLDER, outcome, quoted: `{{${p.expression}}}`, suggest: (name) => `{{${name}}}` };
      if (p.root === "inputs") this.check(this.topView("inputs"), p.path, p.expression, at, "inputs", options);
      else if (this.produces.has(p.path[0]!) && p.path[0] !== this.step.id) this.check(this.stepView(p.path[0]!), p.path.slice(1), p.expression, at, `steps.${p.path[0]}`, options);
    }
  }

  /** `responses.<id>` in a mechanical step: the call's success responses and the error statuses it accepts; a list of them with each. */
  private responseView(id: string): SchemaView | undefined {
    const call = this.step.do?.calls?.find((c) => c.id === id);
    const known = call && this.responses.get(call.operation);
    const candidates = known && (call.accept?.length ? known.accepting(call.accept) : known.success);
    if (!candidates) return undefined;
    const view = new ResponseView(candidates, schemaName(call.operation, known));
    return call.each === undefined ? view : new ListView(view, `responses.${id}`);
  }

  /** Warn when a segment of `segments` is a member the view rules out. */
  private check(view: SchemaView, segments: readonly string[], path: string, at: PathSegment[], prefix = "", options: CheckOptions = {}): void {
    const rule = options.rule ?? UNDECLARED_PATH;
    const read = options.read ?? ((list: string) => `{ var: ${list} }`);
    const suggest = options.suggest ?? ((name: string) => name);
    const quoted = options.quoted ?? `"${path}"`;
    let current: SchemaView = view;
    for (const [i, segment] of segments.entries()) {
      const next: Member = current.next(segment);
      if (next === undefined) return;
      if (next === null || next === UNDECLARED) {
        const closed = next === null && current.closed?.() === true;
        const outcome = typeof options.outcome === "function" ? options.outcome(closed) : (options.outcome ?? "it would be null at run time");
        const names = current.names();
        const base = [prefix, ...segments.slice(0, i)].filter(Boolean).join(".");
        if (current.isList?.() && base !== "") {
          const advice = rule === UNDECLARED_PATH ? `read the items with map: [${read(base)}, { var: ${segments.slice(i).join(".")} }]` : `show the whole list (${suggest(base)}), or compute what you need in an earlier step`;
          this.warnings.push({ rule, path: at, message: `${quoted}: ${base} is a list in ${current.what}, and a path does not reach into each item, so ${outcome}; ${advice}` });
          return;
        }
        // steps.<id> is the output itself: steps.decide.output.total most often meant steps.decide.total_cents.
        const intoOutput = segment === "output" && i === 0 && prefix.startsWith("steps.") && segments[1] !== undefined ? closestNames(segments[1], names)[0] : undefined;
        const near = intoOutput ? undefined : closestNames(segment, names)[0];
        const suggestion = intoOutput
          ? `; ${prefix} is that step's output itself, with no output member: did you mean ${suggest(`${prefix}.${intoOutput}`)}?`
          : near
            ? `; did you mean ${suggest([base, near].filter(Boolean).join("."))}?`
            : names.length > 0
              ? ` (it declares ${listed(names)})`
              : "";
        const open = next === UNDECLARED ? " (the object is open, so an answer may hold more than it documents, but nothing says it holds this)" : closed ? " (it is closed: additionalProperties is false)" : "";
        this.warnings.push({ rule, path: at, message: `${quoted}: ${current.what} declares no property ${segment} there${open}, so ${outcome}${suggestion}` });
        return;
      }
      current = next;
    }
  }

  /** What `calls` can hold here: the operations an agent step lists in tools, or those a mechanical step's calls make. */
  private get callable(): string[] {
    if (!this.step.do) return this.step.tools ?? [];
    return [...new Set((this.step.do.calls ?? []).map((c) => c.operation))];
  }

  /** Whether `output` and `calls` are step data here: in an agent step, and in a mechanical step's gates (not its templates). */
  private get readsStepData(): boolean {
    return !this.step.do || this.inGates;
  }

  private topView(head: "inputs" | "output" | "calls"): SchemaView {
    if (head === "inputs") return new AuthorView(this.doc.inputs, this.defs, "the inputs schema");
    if (head === "output") return this.stepView(this.step.id);
    return this.callsView(this.callable, false);
  }

  /** An earlier step's output: what its produces declares, and for a mechanical step what its output template computes. */
  private stepView(id: string): SchemaView {
    const declared = new AuthorView(this.produces.get(id)!, this.defs, `the produces schema of step ${id}`);
    const computed = this.known.outputs.get(id);
    return computed ? new MergedView(computed, declared) : declared;
  }

  /** `calls`: a list of call records, whose `result` is known when every operation they may be calls to declares its responses. */
  private callsView(tools: readonly string[], successOnly: boolean): SchemaView {
    const candidates = tools.map((t) => (successOnly ? this.responses.get(t)?.success : this.responses.get(t)?.any));
    const known = tools.length > 0 && candidates.every((c) => c !== undefined);
    const kind = successOnly ? "each success response" : "each response (errors included, as is_error says)";
    const result = known ? new ResponseView(candidates.flat() as NonNullable<(typeof candidates)[number]>, `${kind} of ${tools.join(", ")}`) : undefined;
    return new ListView(new RecordView({ tool: undefined, arguments: this.argumentsView(tools), result, is_error: undefined }, "a calls entry"), "calls");
  }

  /**
   * `calls[].arguments`: a call reaches the tool only when its arguments
   * passed the operation's input schema, which takes no other names, so the
   * names are known exactly when every operation the calls may be to is
   * inline. Beneath a name, what its schema documents.
   */
  private argumentsView(tools: readonly string[]): SchemaView | undefined {
    const inputs = tools.map((t) => this.known.inputs.get(t));
    if (tools.length === 0 || inputs.some((i) => i === undefined)) return undefined;
    const byName = new Map<string, LocatedSchema[]>();
    for (const input of inputs) for (const [name, spec] of input!.arguments) byName.set(name, [...(byName.get(name) ?? []), spec.schema]);
    const fields: Record<string, SchemaView> = {};
    for (const [name, schemas] of byName) fields[name] = new ResponseView(schemas, `the input schema of ${tools.join(", ")}`);
    return new RecordView(fields, `the arguments of ${tools.join(", ")}`);
  }

  /** What `results` reads: the operation's success responses. */
  private resultsView(operation: string): ResponseView | undefined {
    const known = this.responses.get(operation);
    return known?.success ? new ResponseView(known.success, schemaName(operation, known)) : undefined;
  }

  /** What is known of the items of a list expression: a var path, `results`, a map, or a join, filter or sort of such lists. */
  private itemView(list: unknown, scope: Scope, what?: string): SchemaView | undefined {
    if (list === null || typeof list !== "object" || Array.isArray(list)) return undefined;
    const [name] = Object.keys(list);
    const value = (list as Record<string, unknown>)[name!];
    const args = Array.isArray(value) ? value : [value];
    if (name === "filter" && isVar(args[0], "calls") && scope.kind === "top") {
      const { successOnly, tools } = narrowing(args[1]);
      const allowed = this.callable;
      return this.callsView(tools ? allowed.filter((t) => tools.includes(t)) : allowed, successOnly).items();
    }
    if (name === "filter" || name === "sort_by" || name === "unique") return this.itemView(args[0], scope);
    if (name === "join") return new RecordView({ left: this.itemView(args[0], scope), right: this.itemView(args[1], scope) }, "join's pairs (left, right)");
    if (name === "map") return this.valueView(args[1], { kind: "item", operator: "map", ...optional(this.itemView(args[0], scope)) }, what);
    if (name === "results" && typeof args[0] === "string" && (args[1] === undefined || typeof args[1] === "string")) {
      let view: Member = this.resultsView(args[0]);
      for (const segment of splitPath(args[1] ?? "")) view = viewOf(view)?.next(segment);
      return view instanceof ResponseView ? view.flattened() : undefined;
    }
    return this.valueView(list, scope, what)?.items();
  }

  /** What is known of an expression's value: a var path, a list built from known lists, an object with literal keys. */
  private valueView(expression: unknown, scope: Scope, what = "the value"): SchemaView | undefined {
    if (expression === null || typeof expression !== "object" || Array.isArray(expression) || Object.keys(expression).length !== 1) return undefined;
    const [name] = Object.keys(expression);
    const value = (expression as Record<string, unknown>)[name!];
    const args = Array.isArray(value) ? value : [value];
    if (name === "var" && typeof args[0] === "string") return this.pathView(args[0], scope);
    if (name === "map" || name === "filter" || name === "sort_by" || name === "unique" || name === "join") return new ListView(this.itemView(expression, scope, what), what);
    if (name === "object" && args.every((pair) => Array.isArray(pair) && typeof pair[0] === "string")) {
      const fields: Record<string, SchemaView | undefined> = {};
      for (const pair of args as Array<[string, unknown]>) fields[pair[0]] = this.valueView(pair[1], scope, what);
      return new RecordView(fields, what);
    }
    return undefined;
  }

  /** What is known of the value a var path reads. */
  private pathView(path: string, scope: Scope): SchemaView | undefined {
    const segments = splitPath(path);
    let view: SchemaView | undefined;
    if (scope.kind === "item") view = scope.view;
    else {
      const head = segments.shift();
      if (head === "inputs" || (!this.step.do && (head === "output" || head === "calls"))) view = this.topView(head);
      else if (head === "steps" && segments[0] !== undefined && this.produces.has(segments[0]) && segments[0] !== this.step.id) view = this.stepView(segments.shift()!);
      else if (head === "responses" && segments[0] !== undefined && this.step.do) view = this.responseView(segments.shift()!);
      else if (head === "item" && this.step.do) view = this.eachItems;
      else return undefined;
    }
    for (const segment of segments) view = viewOf(view?.next(segment));
    return view;
  }
}

/** How a finding names an operation's schemas: its responses', or an MCP tool's outputSchema. */
function schemaName(operation: string, known: OperationResponses): string {
  return known.what ?? `the response schema of ${operation}`;
}

function optional(view: SchemaView | undefined): { view?: SchemaView } {
  return view ? { view } : {};
}

function listed(names: readonly string[]): string {
  return names.length > 12 ? `${names.slice(0, 12).join(", ")}, ...` : names.join(", ");
}

/** Whether `node` is `{ var: name }` (or `{ var: [name] }`). */
function isVar(node: unknown, name: string): boolean {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return false;
  const v = (node as Record<string, unknown>).var;
  return Object.keys(node).length === 1 && (v === name || (Array.isArray(v) && v.length === 1 && v[0] === name));
}

/**
 * What a filter over `calls` keeps, read from the plain forms of its
 * condition: `!is_error` (or is_error == false) keeps successes only, and
 * `tool == "name"` (or `in: [tool, [names]]`) keeps those operations; `and`
 * of such conditions keeps what all of them keep. Anything else narrows
 * nothing, which only means fewer warnings.
 */
function narrowing(condition: unknown): { successOnly: boolean; tools?: string[] } {
  if (condition === null || typeof condition !== "object" || Array.isArray(condition) || Object.keys(condition).length !== 1) return { successOnly: false };
  const [op] = Object.keys(condition);
  const value = (condition as Record<string, unknown>)[op!];
  const args = Array.isArray(value) ? value : [value];
  if (op === "and") {
    const parts = args.map(narrowing);
    const lists = parts.flatMap((p) => (p.tools ? [p.tools] : []));
    const tools = lists.length > 0 ? lists.reduce((a, b) => a.filter((t) => b.includes(t))) : undefined;
    return { successOnly: parts.some((p) => p.successOnly), ...(tools ? { tools } : {}) };
  }
  if (op === "!" && args.length === 1 && isVar(args[0], "is_error")) return { successOnly: true };
  if (args.length === 2 && ["==", "===", "!=", "!=="].includes(op!)) {
    const other = isVar(args[0], "is_error") ? args[1] : isVar(args[1], "is_error") ? args[0] : undefined;
    if (other === (op === "==" || op === "===" ? false : true)) return { successOnly: true };
    const name = isVar(args[0], "tool") ? args[1] : isVar(args[1], "tool") ? args[0] : undefined;
    if ((op === "==" || op === "===") && typeof name === "string") return { successOnly: false, tools: [name] };
  }
  if (op === "in" && args.length === 2 && isVar(args[0], "tool") && Array.isArray(args[1]) && args[1].every((t) => typeof t === "string")) {
    return { successOnly: false, tools: args[1] as string[] };
  }
  return { successOnly: false };
}

function splitPath(path: string): string[] {
  return path === "" ? [] : path.split(".");
}
