// Templates (spec 5.2): the `arguments` and `output` of mechanical steps. A
// one-key object whose key is an operator is an expression and becomes its
// value; `{ literal: v }` is v unevaluated; other objects and arrays are
// walked member by member; everything else is itself. Compiled once.
import { compileNode, memberPath } from "./compiler.js";
import type { Data } from "./data.js";
import type { Evaluate } from "./operator.js";
import { isOperator } from "./operators/index.js";

export type CompiledTemplate = (data: Data) => unknown;

/** Compile a template; throws an ExpressionError for a bad expression inside it. */
export function compileTemplate(template: unknown): CompiledTemplate {
  const evaluate = compileTemplateNode(template, "");
  return function evaluateTemplate(data) {
    return evaluate(data, data);
  };
}

/** The kind of a template node, shared with the load-time checks so both read templates alike. */
export function templateKind(node: unknown): "array" | "literal" | "expression" | "object" | "value" {
  if (Array.isArray(node)) return "array";
  if (node === null || typeof node !== "object") return "value";
  const keys = Object.keys(node);
  if (keys.length === 1 && keys[0] === "literal") return "literal";
  if (keys.length === 1 && isOperator(keys[0]!)) return "expression";
  return "object";
}

function compileTemplateNode(node: unknown, path: string): Evaluate {
  switch (templateKind(node)) {
    case "array": {
      const parts = (node as unknown[]).map((item, i) => compileTemplateNode(item, `${path}[${i}]`));
      return (data, root) => parts.map((part) => part(data, root));
    }
    case "literal": {
      const value = (node as { literal: unknown }).literal;
      // A copy per evaluation: callers own what a template returns and may
      // change it (derived fields, ledger redaction) without touching the stepfile.
      return () => structuredClone(value);
    }
    case "expression":
      return compileNode(node, path);
    case "object": {
      const members = Object.entries(node as Record<string, unknown>).map(
        ([key, value]) => [key, compileTemplateNode(value, `${path}${memberPath(key)}`)] as const,
      );
      // fromEntries, so a member named "__proto__" stays an own property.
      return (data, root) => Object.fromEntries(members.map(([key, part]) => [key, part(data, root)]));
    }
    default: {
      const value = node === undefined ? null : node;
      return () => value;
    }
  }
}
