// Duplicate mapping keys are refused in linear time (issue 12): the YAML
// parser's own check compared each key with every earlier one, and a
// mapping of 20,000 keys took 26 s. No timing is asserted; the test's
// budget (one reply, test/support/budget.ts) is what a quadratic check
// would blow, three parses of 20,000 keys here.
import { describe, expect, it } from "vitest";
import { parseSource } from "../../src/format/source.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { REPLY_MS } from "../support/budget.js";
import { referenceParse } from "../support/yaml-reference.js";

const KEYS = 20_000;
const wide = `steps:\n  - let:\n${Array.from({ length: KEYS }, (_, i) => `      k${i}: ${i}`).join("\n")}\n`;

describe("duplicate keys", () => {
  it("loads a 20,000-key mapping, and refuses one with a duplicate at the duplicate's line, alone or among other errors", { timeout: REPLY_MS }, () => {
    const parsed = parseSource(wide);
    expect("data" in parsed && Object.keys((parsed.data as { steps: Array<{ let: object }> }).steps[0]!.let)).toHaveLength(KEYS);

    // k7 again on line KEYS + 3, column 7.
    expect(parseSource(`${wide}      k7: again\n`)).toStrictEqual({ issues: [{ path: "", message: "Map keys must be unique", line: KEYS + 3, column: 7 }] });

    // A flow sequence left open before the duplicate: both errors, in the parser's order.
    expect(parseSource(`${wide}      open: [\n      k19999: again\n`)).toStrictEqual({
      issues: [
        { path: "", message: "Flow sequence in block collection must be sufficiently indented and end with a ]", line: KEYS + 4, column: 7 },
        { path: "", message: "Map keys must be unique", line: KEYS + 4, column: 7 },
      ],
    });
  });

  it.each([
    ["block keys", "a: 1\nb: 2\na: 3\n"],
    ["flow keys", "m: {x: 1, y: 2, x: 3}\n"],
    ["JSON keys", '{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}'],
    ["a number and a string that look alike (not equal to the parser)", 'a: 1\n1: x\n"1": y\n'],
    ["zero and minus zero (equal), NaN twice (never equal)", "0: a\n-0: b\n.nan: c\n.nan: d\n"],
    ["null keys", "~: a\nnull: b\n"],
    ["merge keys twice", "a: &x {k: 1}\n<<: *x\n<<: {z: 1}\n"],
    ["duplicates among syntax errors", "a: 1\nb: {x: 1, x: 2\nc: [\na: 2\n"],
    ["duplicates in nested and key mappings", "? {p: 1, p: 2}\n: v\nq:\n  r: 1\n  r: 2\n"],
    ["a duplicate in a second document", "a: 1\n---\nb: 1\nb: 2\n"],
  ])("reports %s exactly as the parser's own check did", (_name, text) => {
    const parsed = parseSource(text);
    expect("issues" in parsed ? parsed : { data: parsed.data }).toStrictEqual(referenceParse(text));
  });

  it("loads a stepfile whose step has 20,000 let entries, each checked against the earlier ones", { timeout: 2 * REPLY_MS }, () => {
    // Each entry reads the one before it, which only an earlier entry may be; the checks once copied the earlier names per entry.
    const lets = Array.from({ length: KEYS }, (_, i) => `      k${i}: ${i === 0 ? 0 : `{ "+": [{ var: let.k${i - 1} }, 1] }`}`).join("\n");
    const stepfile = (extra = "") => `stepgate: "1"
id: wide
inputs: { type: object }
steps:
  - id: count
    instructions: Count.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
    let:
${lets}
${extra}`;
    expect(Object.keys(loadStepfileText(stepfile(), "wide.stepfile.yaml").doc.steps[0]!.let!)).toHaveLength(KEYS);
    expect(() => loadStepfileText(stepfile(`      later: { var: let.k${KEYS + 5} }\n`), "wide.stepfile.yaml")).toThrow(/let\.later/);
  });
});
