// Templates of mechanical steps (spec 5.2), with the mechanical-* cases' shapes.
import { describe, expect, it } from "vitest";
import { compileTemplate, ExpressionError } from "../../src/expr/index.js";

describe("compileTemplate", () => {
  const data = {
    inputs: { shelf: "A" },
    responses: { shelf: { items: [{ id: "K-1" }, { id: "K-2" }] } },
  };

  it("evaluates operator objects, walks plain ones and keeps literals (mechanical-step)", () => {
    const template = {
      ids: { map: [{ var: "responses.shelf.items" }, { var: "id" }] },
      count: { length: { var: "responses.shelf.items" } },
      where: { shelf: { var: "inputs.shelf" } },
      note: { literal: { var: "raw" } },
      list: [1, { var: "inputs.shelf" }, { literal: [{ var: "x" }] }],
      plain: "text",
      nothing: null,
      empty: {},
    };
    expect(compileTemplate(template)(data)).toEqual({
      ids: ["K-1", "K-2"],
      count: 2,
      where: { shelf: "A" },
      note: { var: "raw" },
      list: [1, "A", [{ var: "x" }]],
      plain: "text",
      nothing: null,
      empty: {},
    });
  });

  it("binds item for each arguments", () => {
    expect(compileTemplate({ shelf: { var: "item" } })({ ...data, item: "B" })).toEqual({ shelf: "B" });
  });

  it("gives fresh values each time, so changing one never changes the template", () => {
    const evaluate = compileTemplate({ note: { literal: { a: [1] } }, nested: { list: [1] } });
    const first = evaluate({}) as { note: { a: number[] }; nested: { list: number[] } };
    first.note.a.push(2);
    first.nested.list.push(2);
    expect(evaluate({})).toEqual({ note: { a: [1] }, nested: { list: [1] } });
  });

  it("keeps a __proto__ member as data", () => {
    const out = compileTemplate(JSON.parse('{"__proto__": {"polluted": true}}'))({}) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
  });

  it("refuses bad expressions inside, with the path", () => {
    expect(() => compileTemplate({ rows: { map: [[], { nope: 1 }] } })).toThrowError(ExpressionError);
    expect(() => compileTemplate({ rows: { map: [[], { nope: 1 }] } })).toThrowError('.rows.map[1].nope: unknown operator "nope"');
  });
});
