// Rule flow-key-without-value: the parse warns at a flow mapping's key
// written with no `:` (text after an unquoted comma), and at nothing else
// that gives a null value.
import { describe, expect, it } from "vitest";
import { parseSource } from "../../src/format/source.js";

const warningsOf = (text: string) => {
  const parsed = parseSource(text);
  if ("issues" in parsed) throw new Error(JSON.stringify(parsed.issues));
  return (parsed.warnings ?? []).map(({ path, line, column, rule }) => ({ path, line, column, rule }));
};

describe("flow-key-without-value", () => {
  it("warns at text after an unquoted comma in a flow mapping, where it sits, and reads the data as YAML does", () => {
    const text = `id: x\ninfo: { title: Shop API, v2 (beta), version: 1 }\nlist: [{ a: 1, b }]\n`;
    expect(warningsOf(text)).toEqual([
      { path: 'info["v2 (beta)"]', line: 2, column: 26, rule: "flow-key-without-value" },
      { path: "list[0].b", line: 3, column: 16, rule: "flow-key-without-value" },
    ]);
    expect((parseSource(text) as { data: unknown }).data).toEqual({ id: "x", info: { title: "Shop API", "v2 (beta)": null, version: 1 }, list: [{ a: 1, b: null }] });
  });

  it("is silent on a null written as such, an empty value after `:`, a block mapping's empty value and a quoted comma", () => {
    expect(warningsOf(`a: { k: null, j: , l: ~ }\nb:\nc: { t: "x, y" }\n`)).toEqual([]);
  });
});
