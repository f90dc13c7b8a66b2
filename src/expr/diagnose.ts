// Predicate gates (spec section 7): a gate passes only when its predicate is
// exactly true; a failure's diagnosis is the gate's message plus either the
// value of `explain` or what a self-explaining predicate shape adds.
import { compileNode } from "./compiler.js";
import type { Data } from "./data.js";
import { compactJson } from "./json.js";
import type { Evaluate } from "./operator.js";
import { codePointLength } from "./operators/length.js";
import { truthy } from "./truthy.js";

export interface PredicateGate {
  predicate: unknown;
  message: string;
  explain?: unknown;
}

export interface CompiledGate {
  /** True only when the predicate's value is exactly `true`. */
  test(data: Data): boolean;
  /** The diagnosis of a failed submission: message, then the explanation if any. */
  diagnose(data: Data): string;
}

/** What a failing gate adds when its explain gave null, "" or []. */
export const EMPTY_EXPLAIN = "(the explain expression produced nothing)";
/** What a failing gate of a self-explaining shape adds when that shape found nothing to show. */
export const EMPTY_AUTOMATIC = "(the automatic diagnosis found nothing to show: give this gate an explain)";

/** The longest explanation added to a message, in code points. */
export const explanationLimit = 2000;

/** An explanation of a failed part, "" when it has nothing to add. */
type Explainer = (data: unknown, root: unknown) => string;

/** Compile a predicate gate once; throws an ExpressionError for a bad predicate or explain. */
export function compileGate(gate: PredicateGate): CompiledGate {
  const predicate = compileNode(gate.predicate, ".predicate");
  const explain = gate.explain === undefined ? undefined : compileNode(gate.explain, ".explain");
  const explainer: Explainer | undefined = explain ? (data, root) => describe(explain(data, root)) : shapeExplainer(gate.predicate);
  // A diagnosis that stops at the message (often ending in ":") leaves the
  // author guessing; saying why nothing followed points at what to fix.
  const blank = explain ? EMPTY_EXPLAIN : EMPTY_AUTOMATIC;
  return {
    test: (data) => predicate(data, data) === true,
    diagnose: (data) => {
      if (!explainer) return gate.message;
      const extra = cut(explainer(data, data));
      return `${gate.message} ${extra === "" ? blank : extra}`;
    },
  };
}

/** One-off diagnosis; compile with compileGate instead when the gate runs more than once. */
export function diagnose(gate: PredicateGate, data: Data): string {
  return compileGate(gate).diagnose(data);
}

/** How a value reads in a diagnosis: null, "" and [] add nothing; strings as they are; the rest as compact JSON. */
export function describe(value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  if (Array.isArray(value) && value.length === 0) return "";
  return typeof value === "string" ? value : compactJson(value);
}

function cut(text: string): string {
  if (text.length <= explanationLimit || codePointLength(text) <= explanationLimit) return text;
  return Array.from(text).slice(0, explanationLimit).join("");
}

function operands(predicate: unknown): { name: string; args: readonly unknown[] } | undefined {
  if (predicate === null || typeof predicate !== "object" || Array.isArray(predicate)) return undefined;
  const keys = Object.keys(predicate);
  if (keys.length !== 1) return undefined;
  const name = keys[0]!;
  const value = (predicate as Record<string, unknown>)[name];
  return { name, args: Array.isArray(value) ? value : [value] };
}

/** Whether a predicate's shape explains itself when it fails (subset, ==, ===, none over join, and of these). */
export function explainsItself(predicate: unknown): boolean {
  return shapeExplainer(predicate) !== undefined;
}

/** The explanation a predicate shape gives of itself, or undefined for shapes that give none. */
function shapeExplainer(predicate: unknown): Explainer | undefined {
  const shape = operands(predicate);
  if (!shape) return undefined;
  const { name, args } = shape;
  if (name === "subset") {
    const difference = compileNode({ difference: args });
    return (data, root) => describe(difference(data, root));
  }
  if (name === "==" || name === "===") {
    const got = compileNode(args[0]);
    const expected = compileNode(args[1]);
    const from = operandName(args[0]);
    const source = from === undefined ? "" : ` (${from})`;
    return (data, root) => `expected ${compactJson(expected(data, root))}, got ${compactJson(got(data, root))}${source}`;
  }
  if (name === "none" && operands(args[0])?.name === "join") {
    const pairs = compileNode(args[0]);
    const condition = compileNode(args[1]);
    return (data, root) => {
      const list = pairs(data, root);
      if (!Array.isArray(list)) return "";
      return describe(list.filter((pair) => truthy(condition(pair, root))).map((pair) => (pair as { left: unknown }).left));
    };
  }
  if (name === "and") return andExplainer(args);
  return undefined;
}

function andExplainer(args: readonly unknown[]): Explainer | undefined {
  const parts: { holds: Evaluate; explain: Explainer }[] = [];
  for (const arg of args) {
    const explain = shapeExplainer(arg);
    if (explain) parts.push({ holds: compileNode(arg), explain });
  }
  if (parts.length === 0) return undefined;
  return (data, root) =>
    parts
      .filter((part) => part.holds(data, root) !== true)
      .map((part) => part.explain(data, root))
      .filter((text) => text !== "")
      .join(" | ");
}

/**
 * What the first operand of `==` reads, in words, for the common shapes
 * (`output.count`, `the length of output.items`), so "expected 1, got 2"
 * says what was 2; undefined for anything else.
 */
function operandName(node: unknown): string | undefined {
  const shape = operands(node);
  if (!shape) return undefined;
  const [first] = shape.args;
  if (shape.name === "var" && typeof first === "string" && first !== "") return first;
  if (shape.name === "results" && typeof first === "string") return `results of ${first}${typeof shape.args[1] === "string" ? ` at ${shape.args[1]}` : ""}`;
  const inner = shape.name === "length" ? operandName(first) : undefined;
  return inner === undefined ? undefined : `the length of ${inner}`;
}
