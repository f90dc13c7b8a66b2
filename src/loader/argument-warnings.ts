// Load warnings for a mechanical call's `arguments` against its inline
// OpenAPI operation: a required argument or body field not given, a name the
// operation does not have, a literal its schema rules out, and a computed
// value whose declared type cannot match. The run checks arguments itself
// (CallArgumentsInvalid) when the call is made, which may be after a person
// approved an earlier step; these say so at load, never refusing the file.
// Only object-literal templates are read: an `arguments` computed whole, or
// an operation whose document is fetched by url, is not judged.
import { templateKind } from "../expr/template.js";
import { closestNames } from "../format/closest-names.js";
import type { RawIssue } from "./raw-issue.js";
import type { PathSegment } from "../format/source.js";
import type { CallDef } from "../format/types.js";
import type { OperationInputs } from "./operation-inputs.js";
import type { LocatedSchema } from "./response-schemas.js";
import { allowedTypes, holding, literalProblem, summary, typeFits, type Problem } from "./value-checks.js";

/** The types a template expression's value is declared with, and where that is declared; undefined when unknown. */
export type ValueTypes = (expression: unknown) => { types: string[]; from: string } | undefined;

/** How a warning says what happens at run time. */
const refused = (who: string) => `so ${who} is refused at run time (CallArgumentsInvalid)`;

export class ArgumentChecker {
  constructor(
    private readonly inputs: ReadonlyMap<string, OperationInputs>,
    private readonly typesOf: ValueTypes,
    private readonly warnings: RawIssue[],
  ) {}

  /** `at` is the call's path (steps[i].do.calls[j]). */
  check(call: CallDef, at: PathSegment[]): void {
    const op = this.inputs.get(call.operation);
    if (!op) return;
    const who = `call ${call.id} (${call.operation})`;
    const given = call.arguments;
    if (given !== undefined && templateKind(given) !== "object") return;
    const args = (given ?? {}) as Record<string, unknown>;
    const argsAt = given === undefined ? at : [...at, "arguments"];
    for (const [name, spec] of op.arguments) {
      if (spec.required && !Object.hasOwn(args, name)) {
        const where = spec.where === "body" ? "the request body" : `a ${spec.where} parameter`;
        this.warn(argsAt, `${call.operation} requires the argument ${name} (${where}, ${summary(spec.schema)}), which ${who} does not give, ${refused(who)}; add ${name} to its arguments`);
      }
    }
    const names = [...op.arguments.keys()];
    for (const [name, value] of Object.entries(args)) {
      const spec = op.arguments.get(name);
      if (!spec) {
        this.warn([...argsAt, name], `${call.operation} has no argument ${name}, ${refused(who)}; ${nearest(name, names, "its arguments are")}`, true);
        continue;
      }
      this.value(value, spec.schema, [...argsAt, name], name, who);
    }
  }

  /** One argument (or a member of one): a literal against the schema, a computed value by its declared type, an object member by member. */
  private value(template: unknown, schema: LocatedSchema, at: PathSegment[], name: string, who: string): void {
    const kind = templateKind(template);
    const report = (found: Problem | undefined, shown: unknown) => {
      if (found) this.warn(at, `${name} = ${preview(shown)} ${found.problem}, ${refused(who)}; ${found.fix}`);
    };
    if (kind === "value") return report(literalProblem(template, schema), template);
    if (kind === "literal") {
      const value = (template as { literal: unknown }).literal;
      if (value === null || typeof value !== "object" || Array.isArray(value)) report(literalProblem(value, schema), value);
      return;
    }
    const allowed = allowedTypes(schema);
    if (kind === "expression") {
      const declared = this.typesOf(template);
      const types = declared?.types.filter((t) => t !== "null");
      if (allowed && declared && types && types.length > 0 && !types.some((t) => typeFits(t, allowed))) {
        this.warn(at, `${name} is ${types.join(" or ")} (${declared.from}), but ${who} takes ${allowed.join(" or ")} there, ${refused(who)}; convert it, or declare it as ${allowed.filter((t) => t !== "null").join(" or ")}`);
      }
      return;
    }
    if (kind === "array") {
      const items = template as unknown[];
      if (items.every((item) => templateKind(item) === "value")) return report(literalProblem(items, schema), items);
      if (allowed && !allowed.includes("array")) return report({ problem: "is a list", fix: `write ${allowed.join(" or ")}` }, "[...]");
      const itemSchema = holding(schema).find((s) => s.items !== undefined)?.items;
      if (itemSchema !== undefined) items.forEach((item, i) => this.value(item, { schema: itemSchema, root: schema.root }, [...at, i], `${name}[${i}]`, who));
      return;
    }
    // A plain object: its members against the schema's properties.
    if (allowed && !allowed.includes("object")) return report({ problem: "is an object", fix: `write ${allowed.join(" or ")}` }, "{...}");
    this.object(template as Record<string, unknown>, schema, at, name, who);
  }

  private object(given: Record<string, unknown>, schema: LocatedSchema, at: PathSegment[], name: string, who: string): void {
    const parts = holding(schema);
    const properties: Record<string, unknown> = {};
    for (const part of parts) if (isRecord(part.properties)) Object.assign(properties, part.properties);
    for (const part of parts) {
      for (const field of Array.isArray(part.required) ? part.required : []) {
        if (typeof field !== "string" || Object.hasOwn(given, field)) continue;
        const declared = properties[field];
        const what = declared === undefined ? "" : ` (${summary({ schema: declared, root: schema.root })})`;
        this.warn(at, `${name} lacks ${field}${what}, which the operation's schema requires, ${refused(who)}; add ${field} to ${name}`);
      }
    }
    const names = Object.keys(properties);
    // Names the schema expects beyond its properties, or a shape this walk does not combine: not judged.
    const open = parts.some((p) => ["patternProperties", "unevaluatedProperties", "anyOf", "oneOf", "not", "if"].some((k) => k in p) || (p.additionalProperties !== undefined && p.additionalProperties !== false));
    const closed = parts.some((p) => p.additionalProperties === false);
    for (const [field, value] of Object.entries(given)) {
      if (Object.hasOwn(properties, field)) {
        this.value(value, { schema: properties[field], root: schema.root }, [...at, field], `${name}.${field}`, who);
      } else if (!open && names.length > 0) {
        const outcome = closed ? refused(who) : "so the API most likely ignores or refuses it";
        this.warn([...at, field], `${name} has no documented field ${field}, ${outcome}; ${nearest(field, names, "its fields are")}`, true);
      }
    }
  }

  private warn(path: PathSegment[], message: string, atKey?: true): void {
    this.warnings.push({ rule: "call-arguments", path, message, ...(atKey ? { atKey } : {}) });
  }
}

function nearest(name: string, names: readonly string[], intro: string): string {
  const near = closestNames(name, names);
  if (near.length > 0) return `did you mean ${near.join(" or ")}?`;
  return `${intro} ${names.length > 12 ? `${names.slice(0, 12).join(", ")}, ...` : names.join(", ") || "none"}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
