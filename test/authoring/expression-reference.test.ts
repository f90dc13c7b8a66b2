// The expression reference is one source for stepgate_guide and
// docs/stepfile.md: every registered operator is in it, every example gives
// what it says, and the docs hold exactly the generated text.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXPRESSION_NOTES, expressionReferenceMarkdown, OPERATOR_REFERENCE, REFERENCE_END, REFERENCE_START } from "../../src/authoring/expression-reference.js";
import { guideSection } from "../../src/authoring/guide.js";
import { compile } from "../../src/expr/index.js";
import { operatorNames } from "../../src/expr/operators/index.js";

describe("the expression reference", () => {
  it("documents every operator registered in src/expr/operators/index.ts, and only those", () => {
    expect(OPERATOR_REFERENCE.map((o) => o.name).sort()).toEqual([...operatorNames].sort());
    for (const op of OPERATOR_REFERENCE) {
      expect(op.signature, op.name).not.toBe("");
      expect(op.result, op.name).not.toBe("");
      expect(op.diagnosis, op.name).not.toBe("");
    }
  });

  it.each(OPERATOR_REFERENCE.map((o) => [o.name, o] as const))("%s: the example gives what it says", (_, op) => {
    expect(compile(op.example.expression)(op.example.data ?? {})).toEqual(op.example.gives);
  });

  it("is in docs/stepfile.md exactly as generated (npm run expression-reference)", () => {
    const docs = readFileSync(new URL("../../docs/stepfile.md", import.meta.url), "utf8");
    const start = docs.indexOf(REFERENCE_START);
    const end = docs.indexOf(REFERENCE_END);
    expect(start).toBeGreaterThan(0);
    expect(docs.slice(start + REFERENCE_START.length, end).trim()).toBe(expressionReferenceMarkdown().trim());
  });

  it("is what stepgate_guide serves, in its expressions and operators sections: every note and every operator's row", () => {
    const served = `${guideSection("expressions").text}\n${guideSection("operators").text}`;
    const rows = expressionReferenceMarkdown().split("\n").filter((l) => l.startsWith("| `") || l.startsWith("**"));
    expect(rows.length).toBe(OPERATOR_REFERENCE.length + EXPRESSION_NOTES.length);
    for (const row of rows) expect(served).toContain(row);
    expect(served).toContain("var inside iterating operators");
    expect(served).toContain("result is the parsed JSON");
    expect(guideSection("operators").text).not.toContain("| `var` |");
    expect(guideSection("expressions").text).not.toContain("| `results` |");
  });
});
