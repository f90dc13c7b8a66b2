// Load-time warnings: things that load and run but would silently fail.
// They never refuse a file (the format accepts everything it allows); the
// loader keeps them on the LoadedStepfile, stepgate_validate lists them and
// serving prints them once. Three kinds:
// - a literal `var` path into inputs, an earlier step's output or this
//   step's output naming a property its schema does not declare (it would be
//   null at run time), with the nearest declared name as a suggestion;
// - `output.`, `inputs.`, `steps.` or `let.` read inside an iterating
//   operator's item scope, where `var` reads the current item instead;
// - a predicate gate without explain whose shape explains nothing, so a
//   failing submission gets the message alone.
import { explainsItself } from "../expr/index.js";
import { closestNames } from "../format/closest-names.js";
import type { RawIssue } from "../format/rules.js";
import type { PathSegment } from "../format/source.js";
import type { StepDef, StepfileDocument } from "../format/types.js";

type Schema = Record<string, unknown>;
const ITERATIONS = new Set(["map", "filter", "reduce", "all", "some", "none"]);
const STEP_DATA = new Set(["output", "inputs", "steps", "let", "calls"]);

/** What `var` reads at a point of an expression: the step data, or an item whose schema may be known. */
type Scope = { kind: "top" } | { kind: "item"; operator: string; schema?: Schema };

export function stepfileWarnings(doc: StepfileDocument): RawIssue[] {
  const warnings: RawIssue[] = [];
  const defs = (doc.$defs ?? {}) as Record<string, Schema>;
  const produces = new Map<string, Schema>();
  doc.steps.forEach((step, si) => {
    produces.set(step.id, step.produces);
    if (step.do) return;
    const walker = new Walker(doc, defs, produces, step, warnings);
    const at: PathSegment[] = ["steps", si];
    for (const [name, expr] of Object.entries(step.let ?? {})) walker.walk(expr, [...at, "let", name], { kind: "top" });
    for (const [key, expr] of Object.entries(step.derive ?? {})) walker.walk(expr, [...at, "derive", key], { kind: "top" });
    (step.gates ?? []).forEach((gate, gi) => {
      if (gate.predicate === undefined) return;
      walker.walk(gate.predicate, [...at, "gates", gi, "predicate"], { kind: "top" });
      if (gate.explain !== undefined) walker.walk(gate.explain, [...at, "gates", gi, "explain"], { kind: "top" });
      else if (typeof gate.predicate !== "string" && !explainsItself(gate.predicate)) {
        warnings.push({
          path: [...at, "gates", gi, "predicate"],
          message: `gate ${gate.id} has no explain and its predicate's shape explains nothing, so a failing submission is told only "${gate.message ?? ""}"; add explain (an expression whose value says what is wrong), or use a shape that explains itself (subset, ==, none over join)`,
        });
      }
    });
  });
  return warnings;
}

class Walker {
  constructor(
    private readonly doc: StepfileDocument,
    private readonly defs: Record<string, Schema>,
    private readonly produces: ReadonlyMap<string, Schema>,
    private readonly step: StepDef,
    private readonly warnings: RawIssue[],
  ) {}

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
    if (ITERATIONS.has(name)) {
      this.walk(args[0], argAt(0), scope);
      const item = this.itemSchema(args[0], scope);
      const body: Scope = { kind: "item", operator: name, ...(item ? { schema: name === "reduce" ? { type: "object", properties: { current: item, accumulator: {} } } : item } : {}) };
      this.walk(args[1], argAt(1), body);
      args.slice(2).forEach((arg, i) => this.walk(arg, argAt(i + 2), scope));
      return;
    }
    args.forEach((arg, i) => this.walk(arg, argAt(i), scope));
  }

  private path(path: string, at: PathSegment[], scope: Scope): void {
    const segments = path === "" ? [] : path.split(".");
    if (scope.kind === "item") {
      const declared = scope.schema ? this.follow(scope.schema, segments.slice(0, 1)) : undefined;
      if (STEP_DATA.has(segments[0] ?? "") && !declared) {
        this.warnings.push({
          path: at,
          message: `"${path}" is read inside ${scope.operator}'s item scope, where var reads the current item, not the step data, so it is not ${segments[0]}.${segments.slice(1).join(".")}; compute it outside the iteration (in let), join the two lists first (then read left. and right.), or carry it in through reduce's accumulator`,
        });
        return;
      }
      if (scope.schema) this.check(scope.schema, segments, path, at, `the schema of ${scope.operator}'s items`);
      return;
    }
    const [head, ...rest] = segments;
    if (head === "inputs") this.check(this.doc.inputs, rest, path, at, "the inputs schema", "inputs");
    else if (head === "output") this.check(this.produces.get(this.step.id)!, rest, path, at, `the produces schema of step ${this.step.id}`, "output");
    else if (head === "steps" && rest[0] !== undefined && this.produces.has(rest[0]) && rest[0] !== this.step.id) {
      this.check(this.produces.get(rest[0])!, rest.slice(1), path, at, `the produces schema of step ${rest[0]}`, `steps.${rest[0]}`);
    }
  }

  /** Warn when a segment of `segments` is not a property the schema declares. */
  private check(schema: Schema, segments: readonly string[], path: string, at: PathSegment[], what: string, prefix = ""): void {
    let current: Schema | undefined = schema;
    for (const [i, segment] of segments.entries()) {
      current = this.resolve(current);
      if (!current) return;
      const next = this.follow(current, [segment]);
      if (next === null) {
        const names = Object.keys((current.properties as Schema | undefined) ?? {});
        const near = closestNames(segment, names)[0];
        const base = [prefix, ...segments.slice(0, i)].filter(Boolean).join(".");
        const suggestion = near ? `; did you mean ${[base, near].filter(Boolean).join(".")}?` : names.length > 0 ? ` (it declares ${names.join(", ")})` : "";
        this.warnings.push({ path: at, message: `"${path}": ${what} declares no property ${segment} there, so it would be null at run time${suggestion}` });
        return;
      }
      current = next;
    }
  }

  /**
   * The schema under one segment: a Schema, null when the schema declares
   * its properties and this is not one of them, or undefined when unknown.
   */
  private follow(schema: Schema, segments: readonly string[]): Schema | null | undefined {
    const resolved = this.resolve(schema);
    const segment = segments[0];
    if (!resolved || segment === undefined) return resolved;
    if (/^\d+$/.test(segment) && isSchema(resolved.items)) return resolved.items;
    const properties = resolved.properties;
    if (!isSchema(properties)) return undefined;
    if (Object.hasOwn(properties, segment)) return isSchema(properties[segment]) ? properties[segment] : undefined;
    // Other properties are declared to exist: not this walker's to judge.
    if (resolved.patternProperties !== undefined || isSchema(resolved.additionalProperties) || resolved.additionalProperties === true) return undefined;
    if (["allOf", "anyOf", "oneOf", "if", "$ref", "dependentSchemas", "unevaluatedProperties"].some((k) => k in resolved)) return undefined;
    return null;
  }

  /** Follows a local #/$defs/ reference; undefined for anything it cannot read. */
  private resolve(schema: Schema | undefined): Schema | undefined {
    if (!schema) return undefined;
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
    const target = m ? this.defs[m[1]!] : undefined;
    return isSchema(target) && Object.keys(schema).length === 1 ? target : undefined;
  }

  /** The schema of the items of a list expression, when it is a var path (or a join, filter or sort of such lists). */
  private itemSchema(list: unknown, scope: Scope): Schema | undefined {
    if (list === null || typeof list !== "object" || Array.isArray(list)) return undefined;
    const [name] = Object.keys(list);
    const value = (list as Record<string, unknown>)[name!];
    const args = Array.isArray(value) ? value : [value];
    if (name === "filter" || name === "sort_by" || name === "unique") return this.itemSchema(args[0], scope);
    if (name === "join") {
      const left = this.itemSchema(args[0], scope);
      const right = this.itemSchema(args[1], scope);
      return { type: "object", properties: { left: left ?? {}, right: right ?? {} } };
    }
    if (name !== "var" || typeof args[0] !== "string" || scope.kind !== "top") return undefined;
    const listSchema = this.schemaAt(args[0].split("."));
    const resolved = this.resolve(listSchema);
    return resolved && isSchema(resolved.items) ? resolved.items : undefined;
  }

  private schemaAt(segments: readonly string[]): Schema | undefined {
    const [head, ...rest] = segments;
    let schema: Schema | undefined;
    let path = rest;
    if (head === "inputs") schema = this.doc.inputs;
    else if (head === "output") schema = this.produces.get(this.step.id);
    else if (head === "steps" && rest[0] !== undefined) {
      schema = this.produces.get(rest[0]);
      path = rest.slice(1);
    }
    for (const segment of path) {
      const next = schema ? this.follow(schema, [segment]) : undefined;
      schema = next ?? undefined;
    }
    return schema;
  }
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
