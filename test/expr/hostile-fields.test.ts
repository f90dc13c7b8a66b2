// Run data is parsed JSON, and a submission or API answer may have a field
// named `toString` or `valueOf`. It shadows Object.prototype's method, so
// JSONLogic's coercions (`<`, `==`, `+`, `cat`, ...) cannot turn the object
// into a string or number. Found by test/fuzz/expressions.fuzz.test.ts
// (counterexample `{">":[{"var":""}]}` over `{"toString":[]}`): it must be an
// ExpressionError, never a TypeError.
import { describe, expect, it } from "vitest";
import { compile, ExpressionError } from "../../src/expr/index.js";

const hostile: unknown[] = JSON.parse(`[{ "toString": [] }, { "valueOf": 1, "toString": "x" }, [{ "toString": {} }]]`) as unknown[];
const coercing: Array<[string, unknown[]]> = [
  [">", [{ var: "v" }, 1]],
  [">=", [1, { var: "v" }]],
  ["<", [{ var: "v" }]],
  ["<=", [{ var: "v" }, { var: "v" }]],
  ["==", [{ var: "v" }, "x"]],
  ["!=", ["x", { var: "v" }]],
  ["+", [{ var: "v" }, 1]],
  ["-", [{ var: "v" }]],
  ["*", [{ var: "v" }, 2]],
  ["/", [{ var: "v" }, 2]],
  ["%", [{ var: "v" }, 2]],
  ["max", [{ var: "v" }, 1]],
  ["min", [{ var: "v" }, 1]],
  ["cat", ["a", { var: "v" }]],
  ["substr", [{ var: "v" }, 1]],
  ["in", [{ var: "v" }, "text"]],
  ["missing_some", [{ var: "v" }, ["a"]]],
];

describe("data with its own toString or valueOf field", () => {
  for (const [operator, args] of coercing) {
    it(`${operator} gives an ExpressionError, not a TypeError`, () => {
      for (const v of hostile) {
        let thrown: unknown;
        try {
          compile({ [operator]: args })({ v });
        } catch (error) {
          thrown = error;
        }
        if (thrown !== undefined) {
          expect(thrown).toBeInstanceOf(ExpressionError);
          expect((thrown as Error).message).toBe("an object with its own toString or valueOf field cannot be converted to a string or number");
        }
      }
    });
  }

  it("the fuzz counterexample", () => {
    expect(() => compile({ ">": [{ var: "" }] })({ toString: [] })).toThrowError(ExpressionError);
  });

  it("plain objects still coerce as JSONLogic does", () => {
    expect(compile({ cat: ["a", { var: "v" }] })({ v: { k: 1 } })).toBe("a[object Object]");
    expect(compile({ "==": [{ var: "v" }, "1,2"] })({ v: [1, 2] })).toBe(true);
  });
});
