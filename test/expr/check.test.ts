// Load-time checks of expressions and templates (spec 8, rules 6, 7, 9, 10, 11).
import { describe, expect, it } from "vitest";
import { checkExpression, checkTemplate, type CheckContext } from "../../src/expr/check.js";

const gate: CheckContext = { place: "gate", earlierSteps: new Set(["list"]), letNames: new Set(["cited"]) };
const messages = (expr: unknown, context: CheckContext = gate) => checkExpression(expr, context).issues;

describe("checkExpression", () => {
  it("accepts a well-formed gate and reports the operations results reads", () => {
    const result = checkExpression(
      { and: [{ subset: [{ var: "output.ids" }, { map: [{ results: ["listItems", "items"] }, { var: "id" }] }] }, { "==": [{ var: "steps.list.count" }, { length: { results: ["other"] } }] }, {}] },
      gate,
    );
    expect(result).toEqual({ issues: [], operations: ["listItems", "other"] });
  });

  it("refuses objects that are not one-key operator objects (rule 11)", () => {
    expect(messages({ "==": [{ var: "a" }, { a: 1, b: 2 }] })).toEqual([
      { path: '["=="][1]', message: expect.stringContaining('build objects with "object"') as unknown as string },
    ]);
    expect(messages({ and: [true, { nope: 1 }] })).toEqual([{ path: ".and[1].nope", message: 'unknown operator "nope"' }]);
  });

  it("refuses steps paths naming a step that is not earlier (rule 6)", () => {
    expect(messages({ var: "steps.later.x" })).toEqual([{ path: ".var", message: '"steps.later.x" names step "later", which is not an earlier step' }]);
    expect(messages({ var: ["steps.list.x", 0] })).toEqual([]);
    expect(messages({ var: "steps" })).toEqual([]);
    expect(messages({ missing: ["steps.later.x"] })[0]?.path).toBe(".missing[0]");
    expect(messages({ missing_some: [1, ["steps.later"]] })[0]?.path).toBe(".missing_some[1][0]");
  });

  it("does not check paths inside iteration bodies or computed paths", () => {
    expect(messages({ map: [{ var: "output.rows" }, { var: "steps.anything" }] })).toEqual([]);
    expect(messages({ map: [{ var: "steps.later" }, 1] })).toHaveLength(1);
    expect(messages({ var: { cat: ["steps.", "later"] } })).toEqual([]);
  });

  it("checks let paths (rule 9)", () => {
    expect(messages({ var: "let.cited" })).toEqual([]);
    expect(messages({ var: "let.unknown" })[0]?.message).toMatch(/not an earlier let entry/);
    expect(messages({ var: "let.cited" }, { place: "let", earlierSteps: new Set() })[0]?.message).toMatch(/not an earlier let entry/);
    expect(messages({ var: "let" }, { place: "when", earlierSteps: new Set() })[0]?.message).toMatch(/when may not read let/);
  });

  it("allows results only in gates, explain, let and derive, with a literal name (rule 10)", () => {
    for (const place of ["gate", "explain", "let", "derive"] as const) {
      expect(messages({ results: ["op"] }, { place, earlierSteps: new Set() }), place).toEqual([]);
    }
    for (const place of ["when", "select", "do"] as const) {
      expect(messages({ results: ["op"] }, { place, earlierSteps: new Set() })[0]?.message, place).toMatch(/may appear only/);
    }
    expect(messages({ results: [{ var: "x" }] })[0]?.message).toMatch(/literal operation name/);
    expect(messages({ results: ["op", "a", "b"] })[0]?.message).toMatch(/at most one path/);
  });

  it("checks responses and item in do (rule 7)", () => {
    const doContext: CheckContext = { place: "do", earlierSteps: new Set(), callIds: new Set(["shelf"]) };
    expect(messages({ var: "responses.shelf.items" }, doContext)).toEqual([]);
    expect(messages({ var: "responses.other" }, doContext)[0]?.message).toMatch(/not an earlier call/);
    // The format binds item only there but forbids nothing: a warning (reads nothing), not a refusal.
    expect(messages({ var: "item" }, doContext)[0]).toMatchObject({ message: expect.stringMatching(/item is bound only/) as unknown as string, warning: true });
    expect(messages({ var: "item" }, { ...doContext, allowItem: true })).toEqual([]);
  });

  it("reads select paths as paths into the tool result", () => {
    expect(messages({ var: "steps.x" }, { place: "select", earlierSteps: new Set() })).toEqual([]);
  });

  it("checks literal match_all patterns and sort_by directions", () => {
    expect(messages({ match_all: [{ var: "output.t" }, "(?=a)"] })[0]).toMatchObject({ path: ".match_all[1]", message: expect.stringMatching(/RE2/) as unknown as string });
    expect(messages({ match_all: [{ var: "output.t" }, "(?<=a)b"] })).toEqual([]);
    expect(messages({ sort_by: [[], "a", "up"] })[0]).toMatchObject({ path: ".sort_by[2]", warning: true });
    expect(messages({ sort_by: [[], "a", "desc"] })).toEqual([]);
  });
});

describe("checkTemplate", () => {
  const doContext: CheckContext = { place: "do", earlierSteps: new Set(["fetch"]), callIds: new Set(["shelf"]) };

  it("walks plain objects, skips literals, checks expressions", () => {
    const template = {
      ids: { map: [{ var: "responses.shelf.items" }, { var: "id" }] },
      where: { shelf: { var: "inputs.shelf" }, bad: { var: "steps.later.x" } },
      note: { literal: { var: "steps.later", results: 1 } },
      more: [{ var: "responses.nope" }, { a: 1, b: { results: ["op"] } }],
    };
    const { issues } = checkTemplate(template, doContext);
    expect(issues.map((i) => i.path)).toEqual([".where.bad.var", ".more[0].var", ".more[1].b.results[0]"]);
  });
});
