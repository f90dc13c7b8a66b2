// Templates of mechanical steps (format 5.2), compiled once: a one-key
// object naming an operator is an expression, `{ literal: v }` is v as
// written, other objects and arrays are walked, anything else is itself.
import { compile, isOperator, type Compiled } from "../expr/index.js";

export function compileTemplate(template: unknown): Compiled {
  if (Array.isArray(template)) {
    const parts = template.map(compileTemplate);
    return (data) => parts.map((part) => part(data));
  }
  if (template !== null && typeof template === "object") {
    const keys = Object.keys(template);
    const only = keys.length === 1 ? keys[0]! : undefined;
    if (only === "literal") {
      const value = (template as { literal: unknown }).literal;
      return () => structuredClone(value);
    }
    if (only !== undefined && isOperator(only)) return compile(template);
    const members = keys.map((key) => [key, compileTemplate((template as Record<string, unknown>)[key])] as const);
    return (data) => Object.fromEntries(members.map(([key, part]) => [key, part(data)]));
  }
  return () => template;
}
