// The expression language: JSONLogic plus Stepgate's operators (spec section
// 6). Rules are compiled once, when a stepfile loads, and the compiled
// functions are pure: they never write anywhere and never re-read the rule.
import { compileNode } from "./compiler.js";
import type { Compiled } from "./data.js";

export type { Compiled, Data } from "./data.js";

export { ExpressionError } from "./operator.js";
export { truthy } from "./truthy.js";
export { asJson, jsonEqual, jsonKey } from "./json.js";
export { isOperator, operatorNames } from "./operators/index.js";
export { compileTemplate, type CompiledTemplate } from "./template.js";
export { compileGate, diagnose, describe, explainsItself, type CompiledGate, type PredicateGate } from "./diagnose.js";
export { checkExpression, checkTemplate, type CheckContext, type ExpressionCheck, type ExpressionIssue, type Place } from "./check.js";
export { checkRegex, compileRegex, re2AjvRegExp, type AjvRegExp } from "./regex.js";

/** Compile one expression; throws an ExpressionError naming what is wrong and where. */
export function compile(expression: unknown): Compiled {
  const evaluate = compileNode(expression);
  return function evaluateExpression(data) {
    return evaluate(data, data);
  };
}
