// The standard JSONLogic operators behave as JSONLogic specifies (json-logic-js
// semantics), including where json-logic-engine's defaults differ.
import { describe, expect, it } from "vitest";
import { compile, ExpressionError, type Data } from "../../src/expr/index.js";

const run = (rule: unknown, data: Data = {}) => compile(rule)(data);

describe("standard operators", () => {
  const cases: [string, unknown, Data, unknown][] = [
    ["var by dotted path", { var: "a.b" }, { a: { b: 2 } }, 2],
    ["var by array index", { var: "xs.1" }, { xs: [5, 6] }, 6],
    ["var numeric path", { var: 1 }, [7, 8] as unknown as Data, 8],
    ["var default when absent", { var: ["a.z", 9] }, { a: {} }, 9],
    ["var keeps a null value", { var: ["a", 9] }, { a: null }, null],
    ["var empty path is the data", { var: "" }, { a: 1 }, { a: 1 }],
    ["var absent is null", { var: "nope" }, {}, null],
    ["var computed path", { var: { cat: ["a", ".b"] } }, { a: { b: 3 } }, 3],
    ["missing", { missing: ["a", "b", "c"] }, { a: 1, c: "" }, ["b", "c"]],
    ["missing from merge", { missing: { merge: [["a"], ["b"]] } }, { b: 1 }, ["a"]],
    ["missing_some enough", { missing_some: [1, ["a", "b"]] }, { a: 1 }, []],
    ["missing_some not enough", { missing_some: [2, ["a", "b", "c"]] }, { a: 1 }, ["b", "c"]],
    ["if then", { if: [true, "y", "n"] }, {}, "y"],
    ["if else", { if: [[], "y", "n"] }, {}, "n"],
    ["if chain", { if: [false, 1, { "==": [1, 1] }, 2, 3] }, {}, 2],
    ["if without else", { if: [false, 1] }, {}, null],
    ["== loose", { "==": [1, "1"] }, {}, true],
    ["== null vs 0", { "==": [null, 0] }, {}, false],
    ["=== strict", { "===": [1, "1"] }, {}, false],
    ["!= loose", { "!=": [1, "1"] }, {}, false],
    ["!== strict", { "!==": [1, "1"] }, {}, true],
    ["! of empty array", { "!": [[]] }, {}, true],
    ["! of empty object is false ({} is truthy)", { "!": [{}] }, {}, false],
    ["!! of 0", { "!!": [0] }, {}, false],
    ["!! of string", { "!!": ["0"] }, {}, true],
    ["or first truthy", { or: [0, "", "x", "y"] }, {}, "x"],
    ["or last when none", { or: [0, ""] }, {}, ""],
    ["and first falsy", { and: [1, 0, 2] }, {}, 0],
    ["and last when all", { and: [1, 2] }, {}, 2],
    [">", { ">": [2, 1] }, {}, true],
    [">= strings", { ">=": ["b", "a"] }, {}, true],
    ["< coerces", { "<": ["9", 10] }, {}, true],
    ["< between", { "<": [1, 2, 3] }, {}, true],
    ["< between exclusive", { "<": [1, 1, 3] }, {}, false],
    ["<= between inclusive", { "<=": [1, 1, 3] }, {}, true],
    ["max", { max: [1, 3, 2] }, {}, 3],
    ["min", { min: [1, 3, 2] }, {}, 1],
    ["max of nothing", { max: [] }, {}, null],
    ["+ parses floats", { "+": ["3.5", 1] }, {}, 4.5],
    ["+ unary casts", { "+": "7" }, {}, 7],
    ["+ of nothing", { "+": [] }, {}, 0],
    ["- binary", { "-": [5, 2] }, {}, 3],
    ["- unary", { "-": [2] }, {}, -2],
    ["*", { "*": [2, "3"] }, {}, 6],
    ["/", { "/": [6, 4] }, {}, 1.5],
    ["%", { "%": [7, 4] }, {}, 3],
    ["map", { map: [{ var: "xs" }, { "*": [{ var: "" }, 2] }] }, { xs: [1, 2] }, [2, 4]],
    ["map over non-array", { map: [{ var: "xs" }, 1] }, {}, []],
    ["filter", { filter: [{ var: "xs" }, { ">": [{ var: "" }, 1] }] }, { xs: [1, 2, 3] }, [2, 3]],
    ["reduce", { reduce: [{ var: "xs" }, { "+": [{ var: "accumulator" }, { var: "current" }] }, 0] }, { xs: [1, 2, 3] }, 6],
    ["reduce non-array gives initial", { reduce: [null, 1, 5] }, {}, 5],
    ["all", { all: [[1, 2], { ">": [{ var: "" }, 0] }] }, {}, true],
    ["all of empty is false", { all: [[], true] }, {}, false],
    ["some", { some: [[1, 2], { ">": [{ var: "" }, 1] }] }, {}, true],
    ["some of empty", { some: [[], true] }, {}, false],
    ["none", { none: [[1, 2], { ">": [{ var: "" }, 2] }] }, {}, true],
    ["merge", { merge: [1, [2, [3]], []] }, {}, [1, 2, [3]]],
    ["in array", { in: ["b", ["a", "b"]] }, {}, true],
    ["in string", { in: ["ell", "hello"] }, {}, true],
    ["in neither", { in: ["a", null] }, {}, false],
    ["cat", { cat: ["a", 1, null, "b"] }, {}, "a1b"],
    ["substr from", { substr: ["jsonlogic", 4] }, {}, "logic"],
    ["substr negative start", { substr: ["jsonlogic", -5] }, {}, "logic"],
    ["substr length", { substr: ["jsonlogic", 1, 3] }, {}, "son"],
    ["substr negative length", { substr: ["jsonlogic", 4, -2] }, {}, "log"],
    ["log returns its argument", { log: "x" }, {}, "x"],
    ["empty object is itself", {}, {}, {}],
    ["arrays are evaluated member by member", [1, { var: "a" }], { a: 2 }, [1, 2]],
  ];
  it.each(cases)("%s", (_name, rule, data, expected) => {
    expect(run(rule, data)).toEqual(expected);
  });

  it("log writes nothing to stdout or stderr", () => {
    const out = process.stdout.write;
    const err = process.stderr.write;
    const written: unknown[] = [];
    process.stdout.write = ((chunk: unknown) => written.push(chunk) > 0) as typeof out;
    process.stderr.write = ((chunk: unknown) => written.push(chunk) > 0) as typeof err;
    const originalLog = console.log;
    console.log = (...args: unknown[]) => written.push(args);
    try {
      expect(run({ log: [{ var: "a" }] }, { a: 1 })).toBe(1);
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
      console.log = originalLog;
    }
    expect(written).toEqual([]);
  });
});

describe("compile", () => {
  it("refuses unknown operators at compile time with the path", () => {
    expect(() => compile({ and: [true, { nope: 1 }] })).toThrowError(ExpressionError);
    expect(() => compile({ and: [true, { nope: 1 }] })).toThrowError('.and[1].nope: unknown operator "nope"');
  });

  it("refuses json-logic-engine extras that are not in the spec", () => {
    for (const name of ["val", "??", "try", "throw", "pipe", "preserve", "exists", "eachKey", "?:", "method"]) {
      expect(() => compile({ [name]: [1] }), name).toThrowError(/unknown operator/);
    }
  });

  it("refuses objects with more than one key", () => {
    expect(() => compile({ "==": [{ a: 1, b: 2 }, 1] })).toThrowError(/exactly one key/);
  });

  it("never returns inherited members", () => {
    for (const path of ["constructor", "__proto__", "toString", "a.constructor", "a.__proto__", "xs.map"]) {
      const value = run({ var: path }, { a: {}, xs: [] });
      expect(value, path).toBeNull();
    }
    expect(run({ var: "__proto__" }, JSON.parse('{"__proto__": 5}') as Data)).toBe(5);
  });

  it("compiles once: evaluation never reads the rule again", () => {
    const rule = { map: [{ var: "xs" }, { "+": [{ var: "" }, 1] }] };
    const evaluate = compile(rule);
    rule.map[1] = { "+": [{ var: "" }, 100] };
    (rule as Record<string, unknown>).map = "changed";
    expect(evaluate({ xs: [1, 2] })).toEqual([2, 3]);
  });

  it("gives a fresh array for literal arrays on every evaluation", () => {
    const evaluate = compile([1, 2]);
    const first = evaluate({}) as number[];
    first.push(3);
    expect(evaluate({})).toEqual([1, 2]);
  });
});
