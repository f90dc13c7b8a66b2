// Load-time checks of expressions and templates (spec 6 and 8, rules 6, 7,
// 9, 10, 11, 12). They return issues with paths relative to the expression
// (`.and[1].var`); the loader prefixes where the expression sits.
//
// Only literal `var` paths are checked. A computed path
// (`{ var: { cat: [...] } }`) is allowed: it cannot be checked statically,
// and it cannot reach anything a literal path could not, because the runtime
// data only ever holds earlier steps, earlier let entries and earlier calls.
// Paths inside the body of map/filter/reduce/all/some/none read the element,
// not the step data, so they are not checked either; nor are paths in
// `select`, whose data is a tool's result.
import { memberPath } from "./compiler.js";
import { isOperator } from "./operators/index.js";
import { checkRegex } from "./regex.js";
import { templateKind } from "./template.js";

export type Place = "gate" | "explain" | "let" | "derive" | "when" | "select" | "do";

export interface CheckContext {
  place: Place;
  /** Ids of the steps before this one. */
  earlierSteps: ReadonlySet<string>;
  /** Names of the let entries before this expression (gates: all of the step's). */
  letNames?: ReadonlySet<string>;
  /** In `do`: the call ids `responses.<id>` may name. */
  callIds?: ReadonlySet<string>;
  /** In `do`: whether `item` is bound (the arguments of a call with `each`). */
  allowItem?: boolean;
}

export interface ExpressionIssue {
  path: string;
  message: string;
  /** A likely mistake the format does not forbid: reported, never refused. */
  warning?: true;
  /** A warning's rule id (src/loader/rules/); the loader gives errors theirs. */
  rule?: string;
}

export interface ExpressionCheck {
  issues: ExpressionIssue[];
  /** Operation names read with `results`, first-seen order, for the caller to match against the step's tools. */
  operations: string[];
}

const resultsPlaces: ReadonlySet<Place> = new Set(["gate", "explain", "let", "derive"]);
const iterations: ReadonlySet<string> = new Set(["map", "filter", "reduce", "all", "some", "none"]);

export function checkExpression(expression: unknown, context: CheckContext): ExpressionCheck {
  const check = new Checker(context);
  check.expression(expression, "", false);
  return check.result();
}

/** Check a `do` template: plain objects are data, operator objects are expressions, `literal` is skipped. */
export function checkTemplate(template: unknown, context: CheckContext): ExpressionCheck {
  const check = new Checker(context);
  check.template(template, "");
  return check.result();
}

class Checker {
  private readonly issues: ExpressionIssue[] = [];
  private readonly operations = new Set<string>();

  constructor(private readonly context: CheckContext) {}

  result(): ExpressionCheck {
    return { issues: this.issues, operations: [...this.operations] };
  }

  template(node: unknown, path: string): void {
    switch (templateKind(node)) {
      case "array":
        (node as unknown[]).forEach((item, i) => this.template(item, `${path}[${i}]`));
        return;
      case "expression":
        this.expression(node, path, false);
        return;
      case "object":
        for (const [key, value] of Object.entries(node as Record<string, unknown>)) this.template(value, `${path}${memberPath(key)}`);
        return;
      default:
        return;
    }
  }

  /** `inBody`: inside an iteration body, where `var` reads the element. */
  expression(node: unknown, path: string, inBody: boolean): void {
    if (Array.isArray(node)) {
      node.forEach((item, i) => this.expression(item, `${path}[${i}]`, inBody));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    if (keys.length > 1) {
      const hint = this.context.place === "do" ? "write plain objects outside expressions" : 'build objects with "object"';
      this.issue(path, `an expression object must have exactly one key naming an operator, not ${keys.map((k) => JSON.stringify(k)).join(", ")}; ${hint}`);
      return;
    }
    const name = keys[0]!;
    const where = `${path}${memberPath(name)}`;
    if (!isOperator(name)) {
      this.issue(where, `unknown operator ${JSON.stringify(name)}`);
      return;
    }
    const value = (node as Record<string, unknown>)[name];
    const args = Array.isArray(value) ? value : [value];
    const at = (i: number) => (Array.isArray(value) ? `${where}[${i}]` : where);
    this.operator(name, args, at, inBody);
    args.forEach((arg, i) => this.expression(arg, at(i), inBody || (iterations.has(name) && i === 1)));
  }

  private operator(name: string, args: readonly unknown[], at: (i: number) => string, inBody: boolean): void {
    switch (name) {
      case "var":
        if (!inBody && (typeof args[0] === "string" || typeof args[0] === "number")) this.path(String(args[0]), at(0));
        return;
      case "missing":
        if (!inBody) this.paths(Array.isArray(args[0]) ? args[0] : args, Array.isArray(args[0]) ? (i) => `${at(0)}[${i}]` : at);
        return;
      case "missing_some":
        if (!inBody && Array.isArray(args[1])) this.paths(args[1], (i) => `${at(1)}[${i}]`);
        return;
      case "results":
        this.results(args, at);
        return;
      case "match_all":
        if (typeof args[1] === "string") {
          try {
            checkRegex(args[1]);
          } catch (error) {
            this.issue(at(1), (error as Error).message);
          }
        }
        return;
      case "sort_by": {
        const direction = args[2];
        const literal = direction === undefined || direction === null || typeof direction !== "object";
        if (literal && direction !== undefined && direction !== null && direction !== "asc" && direction !== "desc") {
          this.warning("sort-direction", at(2), `the direction is "asc" or "desc"; with ${JSON.stringify(direction)} sort_by gives null`);
        }
        return;
      }
      default:
        return;
    }
  }

  private results(args: readonly unknown[], at: (i: number) => string): void {
    if (!resultsPlaces.has(this.context.place)) {
      this.issue(at(0), `results may appear only in an agent step's gates, explain, let and derive, not in ${this.context.place}`);
    }
    const operation = args[0];
    if (typeof operation !== "string" || operation === "") {
      this.issue(at(0), "results takes a literal operation name as its first argument");
    } else {
      this.operations.add(operation);
    }
    if (args.length > 2) this.issue(at(2), "results takes an operation name and at most one path");
  }

  private paths(list: readonly unknown[], at: (i: number) => string): void {
    list.forEach((path, i) => {
      if (typeof path === "string" || typeof path === "number") this.path(String(path), at(i));
    });
  }

  /** A literal path read from the top of the data. */
  private path(path: string, where: string): void {
    const { place, earlierSteps, letNames, callIds, allowItem } = this.context;
    if (place === "select") return;
    const [head, name] = path.split(".");
    if (head === "steps" && name !== undefined && !earlierSteps.has(name)) {
      this.issue(where, `"${path}" names step "${name}", which is not an earlier step`);
    } else if (head === "let" && place === "when") {
      this.issue(where, `"${path}": when may not read let`);
    } else if (head === "let" && name !== undefined && !(letNames ?? new Set()).has(name)) {
      this.issue(where, `"${path}" names let entry "${name}", which is not an earlier let entry of this step`);
    } else if (head === "responses" && place === "do" && name !== undefined && !(callIds ?? new Set()).has(name)) {
      this.issue(where, `"${path}" names call "${name}", which is not an earlier call of this step`);
    } else if (head === "item" && place === "do" && !allowItem) {
      this.warning("item-outside-each", where, `"${path}": item is bound only in the arguments of a call with each; here it reads nothing`);
    }
  }

  private issue(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  private warning(rule: string, path: string, message: string): void {
    this.issues.push({ path, message, warning: true, rule });
  }
}
