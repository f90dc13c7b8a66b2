// Issue 12, fuzzing expressions and cases files: an expression built from
// any operator and any arguments, over any data, compiles or fails with an
// ExpressionError, and evaluates to a value or an ExpressionError; a
// mutated cases file parses or is CasesInvalid. Anything else is a finding.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, it } from "vitest";
import { compile, ExpressionError, operatorNames } from "../../src/expr/index.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { CasesInvalid, parseCases } from "../../src/offline/index.js";
import { REPO_ROOT } from "../support/paths.js";
import { FUZZ_RUNS, fuzzTimeout } from "./runs.js";

const operator = fc.constantFrom(...operatorNames);
const expression: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.record({ var: fc.oneof(fc.constantFrom("", "inputs", "output", "calls.0.result", "a.b.c", "0"), fc.string({ maxLength: 10 })) }),
    fc.tuple(operator, fc.array(tie("node"), { maxLength: 4 })).map(([op, args]) => ({ [op]: args })),
    fc.tuple(operator, tie("node")).map(([op, arg]) => ({ [op]: arg })),
  ),
})).node;

function typedOnly(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
  }
}

describe("expressions over random data", () => {
  it("compile and evaluate to a value or an ExpressionError, never another exception", { timeout: fuzzTimeout(50) }, () => {
    fc.assert(
      fc.property(expression, fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })), (expr, generated) => {
        // Run data is parsed JSON (client submissions, API results): plain objects, as JSON.parse makes them.
        const data = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
        typedOnly(() => {
          const evaluate = compile(expr);
          typedOnly(() => evaluate({ ...data, inputs: data, output: data, calls: [{ result: data }] }));
        });
      }),
      { numRuns: FUZZ_RUNS * 20 },
    );
  });
});

describe("cases files", () => {
  const stepfile = loadStepfileText(readFileSync(join(REPO_ROOT, "test/fixtures/approve.stepfile.yaml"), "utf8"), "approve");
  const cases = readFileSync(join(REPO_ROOT, "test/fixtures/approve-post.cases.yaml"), "utf8");

  it("parse or are CasesInvalid after any mutation", { timeout: fuzzTimeout(50) }, () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat({ max: 60 }), fc.string({ maxLength: 12 }), (at, cut, insert) => {
        const where = at % (cases.length + 1);
        const text = cases.slice(0, where) + insert + cases.slice(where + cut);
        try {
          parseCases(text, "fuzz.cases.yaml", stepfile);
        } catch (error) {
          if (!(error instanceof CasesInvalid)) throw error;
        }
      }),
      { numRuns: FUZZ_RUNS * 8 },
    );
  });
});
