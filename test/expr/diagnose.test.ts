// Predicate gates and their diagnoses, with the texts the public conformance
// suite expects (diagnosis-and, -equal, -join, -subset, let, operators).
import { describe, expect, it } from "vitest";
import { compileGate, describe as describeValue, diagnose, explanationLimit } from "../../src/expr/diagnose.js";

const sources = { inputs: { sources: ["S-01", "S-02"] } };

describe("compileGate", () => {
  it("passes only when the predicate is exactly true", () => {
    const gate = compileGate({ predicate: { var: "output.x" }, message: "m" });
    expect(gate.test({ output: { x: true } })).toBe(true);
    expect(gate.test({ output: { x: 1 } })).toBe(false);
    expect(gate.test({ output: { x: "true" } })).toBe(false);
    expect(gate.test({ output: { x: [1] } })).toBe(false);
  });

  it("subset adds the difference (diagnosis-subset)", () => {
    const gate = { message: "cite only the given sources", predicate: { subset: [{ var: "output.cited" }, { var: "inputs.sources" }] } };
    expect(diagnose(gate, { ...sources, output: { cited: ["S-01", "S-07", "S-09"] } })).toBe('cite only the given sources ["S-07","S-09"]');
  });

  it("== adds expected and got (diagnosis-equal)", () => {
    const gate = { message: "count must be the number of sources", predicate: { "==": [{ var: "output.count" }, { length: { var: "inputs.sources" } }] } };
    expect(diagnose(gate, { ...sources, output: { count: 3 } })).toBe("count must be the number of sources expected 2, got 3 (output.count)");
    const strict = { message: "m", predicate: { "===": [{ var: "output.v" }, "x"] } };
    expect(diagnose(strict, { output: {} })).toBe('m expected "x", got null (output.v)');
    const counted = { message: "list each invoice once", predicate: { "==": [{ length: { var: "output.ids" } }, 2] } };
    expect(diagnose(counted, { output: { ids: [1] } })).toBe("list each invoice once expected 2, got 1 (the length of output.ids)");
    const computed = { message: "m", predicate: { "==": [{ "+": [1, 1] }, 3] } };
    expect(diagnose(computed, {})).toBe("m expected 3, got 2");
  });

  it("none over a join adds the left of every pair that met the condition (diagnosis-join)", () => {
    const gate = {
      message: "every row's stock must match the catalogue",
      predicate: {
        none: [{ join: [{ var: "output.rows" }, { var: "inputs.catalogue" }, "id", "id"] }, { "!=": [{ var: "left.stock" }, { var: "right.stock" }] }],
      },
    };
    const data = { inputs: { catalogue: [{ id: "K-1", stock: 4 }, { id: "K-2", stock: 0 }] }, output: { rows: [{ id: "K-1", stock: 4 }, { id: "K-2", stock: 3 }] } };
    expect(compileGate(gate).test(data)).toBe(false);
    expect(diagnose(gate, data)).toBe('every row\'s stock must match the catalogue [{"id":"K-2","stock":3}]');
  });

  it("and adds each failing part's explanation joined by | (diagnosis-and)", () => {
    const gate = {
      message: "cite only the given sources and count them",
      predicate: {
        and: [{ subset: [{ var: "output.cited" }, { var: "inputs.sources" }] }, { "==": [{ var: "output.count" }, { length: { var: "output.cited" } }] }],
      },
    };
    const data = { ...sources, output: { cited: ["S-01", "S-09"], count: 1 } };
    expect(diagnose(gate, data)).toBe('cite only the given sources and count them ["S-09"] | expected 2, got 1 (output.count)');
    expect(diagnose(gate, { ...sources, output: { cited: ["S-01"], count: 3 } })).toBe("cite only the given sources and count them expected 1, got 3 (output.count)");
  });

  it("explain replaces the automatic diagnosis (diagnosis-and, operators)", () => {
    const explained = {
      message: "cite only the given sources:",
      predicate: { subset: [{ var: "output.cited" }, { var: "inputs.sources" }] },
      explain: { cat: ["unknown", " ", { length: { difference: [{ var: "output.cited" }, { var: "inputs.sources" }] } }] },
    };
    expect(diagnose(explained, { ...sources, output: { cited: ["S-01", "S-09"] } })).toBe("cite only the given sources: unknown 1");
    const listed = { ...explained, message: "cite only the given sources; these are not among them:", explain: { difference: [{ var: "output.cited" }, { var: "inputs.sources" }] } };
    expect(diagnose(listed, { ...sources, output: { cited: ["S-01", "S-09", "S-01"] } })).toBe('cite only the given sources; these are not among them: ["S-09"]');
  });

  it("explain reads let (let case)", () => {
    const gate = { message: "cite only the given sources; these are not among them:", predicate: { "==": [{ length: { var: "let.unknown" } }, 0] }, explain: { var: "let.unknown" } };
    expect(diagnose(gate, { let: { unknown: ["S-09"] } })).toBe('cite only the given sources; these are not among them: ["S-09"]');
  });

  it("null, empty string and empty array add no value, and the diagnosis says the explain produced nothing", () => {
    for (const value of [null, "", []]) {
      expect(diagnose({ message: "m:", predicate: false, explain: { var: "v" } }, { v: value })).toBe("m: (the explain expression produced nothing)");
    }
  });

  it("shapes that explain nothing add nothing; a self-explaining shape that finds nothing says so", () => {
    expect(diagnose({ message: "m", predicate: { ">": [1, 2] } }, {})).toBe("m");
    expect(diagnose({ message: "m", predicate: { and: [{ ">": [1, 2] }, true] } }, {})).toBe("m");
    expect(diagnose({ message: "m", predicate: { subset: [{ var: "a" }, { var: "b" }] } }, { a: "x", b: [] })).toBe("m (the automatic diagnosis found nothing to show: give this gate an explain)");
  });

  it("cuts the explanation at 2,000 code points", () => {
    const long = "😀".repeat(3000);
    const text = diagnose({ message: "m", predicate: false, explain: { var: "v" } }, { v: long });
    expect(Array.from(text).length).toBe(2 + explanationLimit);
    expect(text.endsWith("😀")).toBe(true);
    const items = Array.from({ length: 1000 }, (_, i) => `item-${i}`);
    const auto = diagnose({ message: "m", predicate: { subset: [{ var: "a" }, []] } }, { a: items });
    expect(auto.length).toBe(2 + explanationLimit);
  });
});

describe("describe", () => {
  it("shows strings as they are and the rest as compact JSON", () => {
    expect(describeValue("a b")).toBe("a b");
    expect(describeValue({ a: [1, "x"] })).toBe('{"a":[1,"x"]}');
    expect(describeValue(0)).toBe("0");
    expect(describeValue(false)).toBe("false");
  });
});
