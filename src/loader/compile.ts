// Everything a run evaluates is compiled once, here, when the stepfile loads:
// JSON Schema validators (plain ones checked here and compiled on first use,
// see jsonschema/author-schemas.ts), predicates, let/derive/when expressions
// and the schema the client is shown for each step.
import type { ValidateFunction } from "ajv";
import { compile, compileGate, compileTemplate, type Compiled, type CompiledGate as CompiledPredicate } from "../expr/index.js";
import { authorSchemaCompiler } from "../jsonschema/author-schemas.js";
import type { PathSegment } from "../format/source.js";
import type { RawIssue } from "./raw-issue.js";
import { gateKind, type GateDef, type StepDef, type StepfileDocument } from "../format/types.js";

export type CompiledGate =
  | { id: string; kind: "schema"; validate: ValidateFunction }
  | { id: string; kind: "predicate"; check: CompiledPredicate }
  | { id: string; kind: "http"; tool: string }
  | { id: string; kind: "approve"; message: string };

export interface CompiledCall {
  id: string;
  operation: string;
  arguments: Compiled;
  each?: Compiled;
  accept: readonly number[];
}

export interface CompiledStep {
  def: StepDef;
  mechanical: boolean;
  /** Mechanical steps: their calls in order and the output template. */
  calls: CompiledCall[];
  output?: Compiled;
  produces: ValidateFunction;
  /** `produces` minus derived properties: what the client is shown and first checked against. */
  shownSchema: Record<string, unknown>;
  shown: ValidateFunction;
  gates: CompiledGate[];
  lets: Array<[string, Compiled]>;
  derive: Array<[string, Compiled]>;
  when?: Compiled;
  attempts: number;
}

export interface CompiledStepfile {
  inputs: ValidateFunction;
  steps: CompiledStep[];
}

/**
 * `checked`: the document passed every check of a full load by this code
 * before (a load cache hit, see load.ts), so everything in it is known to
 * compile: each schema, expression, template and predicate is compiled by
 * the same code on its first use instead, and a start compiles nothing a
 * run does not reach.
 */
export function compileStepfile(doc: StepfileDocument, options: { checked?: boolean } = {}): { compiled?: CompiledStepfile; issues: RawIssue[] } {
  const issues: RawIssue[] = [];
  const compileSchema = authorSchemaCompiler(options);
  const defs = doc.$defs ?? {};

  // Every author schema may reference `#/$defs/<name>` of the file, so each is
  // compiled with the file's $defs beside its own.
  const schema = (value: unknown, path: PathSegment[]): ValidateFunction | undefined => {
    const own = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
    const withDefs = own ? { ...own, $defs: { ...defs, ...((own.$defs as object | undefined) ?? {}) } } : value;
    try {
      return compileSchema(withDefs as object);
    } catch (error) {
      issues.push({ path, message: `not a valid JSON Schema: ${(error as Error).message}` });
      return undefined;
    }
  };
  const expr = (value: unknown, path: PathSegment[], compiler: (v: unknown) => Compiled = compile): Compiled | undefined => {
    if (options.checked) return onFirstUse(() => compiler(value));
    try {
      return compiler(value);
    } catch (error) {
      issues.push({ path, message: (error as Error).message });
      return undefined;
    }
  };

  for (const [name, def] of Object.entries(defs)) schema(def, ["$defs", name]);
  const inputs = schema(doc.inputs, ["inputs"]);
  const steps = doc.steps.map((step, si) => compileStep(step, ["steps", si], schema, expr, issues, options.checked === true));
  if (issues.length > 0 || !inputs || steps.some((s) => s === undefined)) return { issues };
  return { compiled: { inputs, steps: steps as CompiledStep[] }, issues };
}

function compileStep(
  step: StepDef,
  at: PathSegment[],
  schema: (value: unknown, path: PathSegment[]) => ValidateFunction | undefined,
  expr: (value: unknown, path: PathSegment[], compiler?: (v: unknown) => Compiled) => Compiled | undefined,
  issues: RawIssue[],
  checked: boolean,
): CompiledStep | undefined {
  const produces = schema(step.produces, [...at, "produces"]);
  const shownSchema = withoutDerived(step.produces, Object.keys(step.derive ?? {}));
  // With nothing derived it is `produces` itself: one check and one validator (a plain schema's validator is shared by its JSON text anyway).
  const shown = shownSchema === step.produces ? produces : schema(shownSchema, [...at, "produces"]);
  const gates = (step.gates ?? []).map((gate, gi) => compileGateDef(gate, [...at, "gates", gi], schema, issues, checked));
  const lets = Object.entries(step.let ?? {}).map(([name, e]) => [name, expr(e, [...at, "let", name])] as const);
  const derive = Object.entries(step.derive ?? {}).map(([name, e]) => [name, expr(e, [...at, "derive", name])] as const);
  const when = step.when === undefined ? undefined : expr(step.when, [...at, "when"]);
  const template = (value: unknown, path: PathSegment[]) => expr(value, path, compileTemplate);
  const calls = (step.do?.calls ?? []).map((call, ci) => {
    const args = template(call.arguments ?? {}, [...at, "do", "calls", ci, "arguments"]);
    const each = call.each === undefined ? undefined : template(call.each, [...at, "do", "calls", ci, "each"]);
    return args && { id: call.id, operation: call.operation, arguments: args, accept: call.accept ?? [], ...(each ? { each } : {}) };
  });
  const output = step.do ? template(step.do.output, [...at, "do", "output"]) : undefined;
  if (calls.some((c) => !c) || (step.do && !output)) return undefined;
  const ok = produces && shown && gates.every(Boolean) && lets.every(([, c]) => c) && derive.every(([, c]) => c) && (step.when === undefined || when);
  if (!ok) return undefined;
  return {
    def: step,
    mechanical: step.do !== undefined,
    calls: calls as CompiledCall[],
    ...(output ? { output } : {}),
    produces: produces!,
    shownSchema,
    shown: shown!,
    gates: gates as CompiledGate[],
    lets: lets as Array<[string, Compiled]>,
    derive: derive as Array<[string, Compiled]>,
    ...(when ? { when } : {}),
    attempts: 1 + (step.retries ?? 0),
  };
}

function compileGateDef(
  gate: GateDef,
  at: PathSegment[],
  schema: (value: unknown, path: PathSegment[]) => ValidateFunction | undefined,
  issues: RawIssue[],
  checked: boolean,
): CompiledGate | undefined {
  switch (gateKind(gate)) {
    case "schema": {
      const validate = schema(gate.schema, [...at, "schema"]);
      return validate && { id: gate.id, kind: "schema", validate };
    }
    case "predicate": {
      const source = { predicate: gate.predicate, message: gate.message ?? "", ...(gate.explain !== undefined ? { explain: gate.explain } : {}) };
      if (checked) {
        let compiled: CompiledPredicate | undefined;
        const get = () => (compiled ??= compileGate(source));
        return { id: gate.id, kind: "predicate", check: { test: (data) => get().test(data), diagnose: (data) => get().diagnose(data) } };
      }
      try {
        return { id: gate.id, kind: "predicate", check: compileGate(source) };
      } catch (error) {
        issues.push({ path: [...at, "predicate"], message: (error as Error).message });
        return undefined;
      }
    }
    case "http":
      return { id: gate.id, kind: "http", tool: gate.http!.tool };
    case "approve":
      return { id: gate.id, kind: "approve", message: gate.approve!.message };
    default:
      return undefined;
  }
}

/** An expression compiled by `compile` when it is first evaluated. */
function onFirstUse(compile: () => Compiled): Compiled {
  let compiled: Compiled | undefined;
  return (data) => (compiled ??= compile())(data);
}

/** The step's output schema without derived properties and their `required` entries. */
export function withoutDerived(produces: Record<string, unknown>, derived: string[]): Record<string, unknown> {
  if (derived.length === 0) return produces;
  const properties = Object.fromEntries(
    Object.entries((produces.properties ?? {}) as Record<string, unknown>).filter(([k]) => !derived.includes(k)),
  );
  const out: Record<string, unknown> = { ...produces, properties };
  if (Array.isArray(produces.required)) out.required = produces.required.filter((k) => !derived.includes(k as string));
  return out;
}
