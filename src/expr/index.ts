// The expression language: JSONLogic through json-logic-engine. Rules are
// compiled once, when a stepfile loads, and the compiled functions are pure.
import { LogicEngine } from "json-logic-engine";

export type Data = Record<string, unknown>;
export type Compiled = (data: Data) => unknown;

const engine = new LogicEngine();

/** Compile one expression; throws an Error naming what is wrong. */
export function compile(expression: unknown): Compiled {
  try {
    const fn = engine.build(expression as never) as (data: Data) => unknown;
    return (data) => fn(data);
  } catch (error) {
    throw new Error(describeEngineError(error), { cause: error });
  }
}

function describeEngineError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "type" in error) {
    const { type, key } = error as { type: unknown; key?: unknown };
    return key === undefined ? String(type) : `${String(type)}: ${String(key)}`;
  }
  return String(error);
}

/** Whether `name` is an operator of the expression language. */
export function isOperator(name: string): boolean {
  return Object.hasOwn(engine.methods, name);
}
