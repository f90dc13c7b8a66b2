// Compiles a JSONLogic rule into closures once. Written here instead of using
// json-logic-engine's build(): that engine differs from standard JSONLogic
// where Stepgate needs the standard (`{}` is falsy there, arithmetic and
// max/min throw instead of returning a value, extra operators such as `val`,
// `??`, `try`, `throw` and `pipe` are always on), it generates code with
// eval, and its custom lazy operators re-walk the rule on every evaluation.
import { ExpressionError, type CompileContext, type Evaluate } from "./operator.js";
import { operators } from "./operators/index.js";

/** Compile one expression; `path` prefixes the paths in error messages. */
export function compileNode(node: unknown, path = ""): Evaluate {
  if (Array.isArray(node)) {
    const parts = node.map((item, i) => compileNode(item, `${path}[${i}]`));
    return function evaluateArray(data, root) {
      const out = new Array<unknown>(parts.length);
      for (let i = 0; i < parts.length; i++) out[i] = parts[i]!(data, root);
      return out;
    };
  }
  if (node === null || typeof node !== "object") {
    const value = node === undefined ? null : node;
    return () => value;
  }
  const keys = Object.keys(node);
  if (keys.length === 0) return () => ({});
  if (keys.length > 1) {
    throw new ExpressionError(
      `an expression object must have exactly one key, an operator (found ${keys.map((k) => JSON.stringify(k)).join(", ")}); build objects with "object"`,
      path,
    );
  }
  const name = keys[0]!;
  const where = `${path}${memberPath(name)}`;
  const operator = operators.get(name);
  if (!operator) throw new ExpressionError(`unknown operator ${JSON.stringify(name)}`, where);
  const value = (node as Record<string, unknown>)[name];
  const context: CompileContext = {
    compile: (child, suffix) => compileNode(child, `${where}${suffix}`),
    fail: (message) => {
      throw new ExpressionError(message, where);
    },
  };
  return operator.compile(Array.isArray(value) ? value : [value], context);
}

/** `.name` for identifier-like keys, `["=="]` otherwise. */
export function memberPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
