// Arazzo values that may hold runtime expressions anywhere inside (a
// requestBody payload, a parameter value, outputs) turned into stepfile
// templates (format section 5.2): a one-key object is an operator there, so
// objects of one key are built with `object`, and every value inside an
// expression is itself an expression.
import { translateValue, type Scope } from "./expressions.js";
import type { Logic } from "./json-logic.js";

/** A value as a template: walked member by member, runtime expressions replaced by what they read. */
export function template(value: unknown, scope: Scope): Logic {
  if (Array.isArray(value)) return value.map((v) => template(v, scope));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 1) return expression(value, scope);
    return Object.fromEntries(entries.map(([k, v]) => [k, template(v, scope)]));
  }
  return translateValue(value, scope).expr;
}

/** A value in an expression's place: objects through `object`, arrays element by element. */
export function expression(value: unknown, scope: Scope): Logic {
  if (Array.isArray(value)) return value.map((v) => expression(v, scope));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return { object: entries.map(([k, v]) => [k, expression(v, scope)]) };
  }
  return translateValue(value, scope).expr;
}
