// Load-time checks of expressions and templates (format rules 6, 9-11),
// phrased as issues with paths relative to the expression.
import { compile, isOperator } from "../expr/index.js";
import type { PathSegment } from "../format/source.js";

export interface ExpressionContext {
  place: "gate" | "let" | "derive" | "when" | "select" | "do";
  earlierSteps: ReadonlySet<string>;
  letNames?: ReadonlySet<string>;
  callIds?: ReadonlySet<string>;
  /** Walk plain objects and arrays as templates (format 5.2) rather than refusing them. */
  template?: boolean;
}

export function checkExpressionShape(expr: unknown, ctx: ExpressionContext): Array<{ path: PathSegment[]; message: string }> {
  const issues: Array<{ path: PathSegment[]; message: string }> = [];
  walk(expr, [], ctx.template === true);
  return issues;

  function walk(node: unknown, path: PathSegment[], template: boolean): void {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i], template));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    const [key] = keys;
    if (template && keys.length === 1 && key === "literal") return;
    if (keys.length !== 1 || !isOperator(key!)) {
      if (template) {
        for (const k of keys) walk((node as Record<string, unknown>)[k], [...path, k], true);
        return;
      }
      const what = keys.length === 1 ? `${key} is not an operator` : `an expression object has exactly one key, an operator (found ${keys.join(", ")})`;
      issues.push({ path, message: `${what}; build objects with object` });
      return;
    }
    const args = (node as Record<string, unknown>)[key!];
    if (key === "var") checkVar(args, [...path, "var"]);
    if (key === "results" && !["gate", "let", "derive"].includes(ctx.place)) {
      issues.push({ path: [...path, "results"], message: "results may appear only in an agent step's gates, let and derive" });
    }
    // Inside an expression, arguments are expressions again (never templates).
    walk(args, [...path, key!], false);
    if (path.length === 0 || template) {
      try {
        compile(node);
      } catch (error) {
        issues.push({ path, message: (error as Error).message });
      }
    }
  }

  function checkVar(args: unknown, path: PathSegment[]) {
    const name = Array.isArray(args) ? args[0] : args;
    if (typeof name !== "string") return;
    const [root, first] = name.split(".");
    if (root === "steps" && first !== undefined && !ctx.earlierSteps.has(first)) {
      issues.push({ path, message: `steps.${first} is not an earlier step` });
    }
    if (root === "let") {
      if (ctx.place === "when") issues.push({ path, message: "when may not read let" });
      else if (first !== undefined && !(ctx.letNames ?? new Set()).has(first)) issues.push({ path, message: `let.${first} is not an earlier let entry` });
    }
    if (root === "responses" && ctx.place === "do" && first !== undefined && !(ctx.callIds ?? new Set()).has(first)) {
      issues.push({ path, message: `responses.${first} is not an earlier call of this step` });
    }
  }
}
