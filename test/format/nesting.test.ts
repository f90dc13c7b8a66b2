// The nesting scan (src/format/nesting.ts) skips runs of ordinary
// characters and the insides of quoted scalars with a regexp search; these
// cases pin where it must still look: brackets after a long run, brackets
// and quotes inside quoted scalars over several lines, comments, block
// scalars, and the line:column it reports past a run.
import { describe, expect, it } from "vitest";
import { flowTooDeep } from "../../src/format/nesting.js";

describe("flowTooDeep", () => {
  it("finds the bracket past the bound after a long run of ordinary characters, at its line and column", () => {
    expect(flowTooDeep(`${"k".repeat(5_000)}: [[[1]]]\n`, 2)).toEqual({ depth: 3, line: 1, column: 5_005 });
    expect(flowTooDeep(`a: 1\nkey-with:colon,comma?and-dash: {a: [[x]]}\n`, 2)).toEqual({ depth: 3, line: 2, column: 37 });
  });

  it("counts no bracket inside a quoted scalar, over lines, with escapes and doubled quotes, and counts the lines it spans", () => {
    expect(flowTooDeep(`a: "[[[ \\" [[[\n [[[ "\nb: '[[[ '' [[[\n[[['\nc: [[1]]\n`, 1)).toEqual({ depth: 2, line: 5, column: 5 });
    expect(flowTooDeep(`a: "unterminated [[[ \n`, 0)).toBeUndefined();
  });

  it("counts no bracket in a comment, a block scalar or a plain scalar, and counts one where a value starts", () => {
    expect(flowTooDeep(`a: x[[[ # [[[\nb: |\n  [[[\n  [[[\nc: [x]\n`, 0)).toEqual({ depth: 1, line: 5, column: 4 });
    expect(flowTooDeep(`a: x[0]\n`, 0)).toBeUndefined();
  });

  it("reads a 3 MB key and a 3 MB quoted string as nesting nothing", () => {
    expect(flowTooDeep(`stepgate: "1"\n${"k".repeat(3_000_000)}: 1\n`, 128)).toBeUndefined();
    expect(flowTooDeep(`description: "${"[".repeat(3_000_000)}"\n`, 128)).toBeUndefined();
  });
});
