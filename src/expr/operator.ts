// What an operator is. Each operator lives in its own file under operators/
// and is registered in operators/index.ts, so adding one is one file and one
// line. Operators are compiled once into plain closures; evaluating a rule
// never looks at the rule again.

/**
 * A compiled (sub-)expression. `data` is what `var` reads (the item inside
 * map/filter/..., the whole data outside); `root` is always the whole data,
 * which is how `results` reaches `calls` from inside an iteration.
 */
export type Evaluate = (data: unknown, root: unknown) => unknown;

export interface CompileContext {
  /** Compile a sub-expression; `where` is its path relative to the operator, like `[1]`. */
  compile(node: unknown, where: string): Evaluate;
  /** Refuse the rule at compile time, naming where the operator is. */
  fail(message: string): never;
}

export interface Operator {
  /** `args` is the operator's value, wrapped in an array when it was not one (as JSONLogic does). */
  compile(args: readonly unknown[], context: CompileContext): Evaluate;
}

/** Thrown when a rule cannot be compiled; `path` is where, like `.and[1].var`. */
export class ExpressionError extends Error {
  override readonly name = "ExpressionError";
  readonly path: string;
  constructor(message: string, path: string) {
    super(path === "" ? message : `${path}: ${message}`);
    this.path = path;
  }
}

/** An operator whose arguments are all evaluated first, left to right. */
export function eager(apply: (values: unknown[]) => unknown): Operator {
  return {
    compile(args, context) {
      const parts = args.map((arg, i) => context.compile(arg, `[${i}]`));
      return function evaluateEager(data, root) {
        const values = new Array<unknown>(parts.length);
        for (let i = 0; i < parts.length; i++) values[i] = parts[i]!(data, root);
        try {
          return apply(values);
        } catch (error) {
          throw asConversionError(error);
        }
      };
    },
  };
}

/**
 * JSONLogic's coercions (`==`, `<`, `+`, `cat`, ...) turn an object into a
 * string or number through its toString/valueOf. Run data is parsed JSON,
 * so those are Object.prototype's, unless the data itself has a field named
 * `toString` or `valueOf` (a hostile submission or API answer), which
 * shadows the method and makes JavaScript throw a TypeError. That is a
 * value the expression cannot use, so it is an ExpressionError like any
 * other, not a crash; anything else is rethrown as it is.
 */
export function asConversionError(error: unknown): unknown {
  if (error instanceof TypeError && /convert object to primitive/i.test(error.message)) {
    return new ExpressionError("an object with its own toString or valueOf field cannot be converted to a string or number", "");
  }
  return error;
}
