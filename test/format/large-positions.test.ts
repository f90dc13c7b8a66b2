// A large stepfile is read by the fast path (src/format/fast-yaml.ts), which
// keeps no positions; an issue or warning in it must still name the line and
// column the positioned parse gives, however far down the file it is.
import { describe, expect, it } from "vitest";
import { StepfileInvalid } from "../../src/errors.js";
import { fastParse } from "../../src/format/fast-yaml.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { REPLY_MS } from "../support/budget.js";

const STEPS = 1_000;

/** A stepfile of `STEPS` steps in the shape of the cold-start bench's; `edit` may change one step's lines. */
function largeStepfile(edit: (step: number, lines: string[]) => string[] = (_, lines) => lines): string {
  const lines = [`stepgate: "1"`, "id: large", "inputs: { type: object }", "steps:"];
  for (let i = 1; i <= STEPS; i++) {
    lines.push(
      ...edit(i, [
        `  - id: step-${i}`,
        `    instructions: "Step ${i}: list the items."`,
        `    produces: { type: object, required: [items], properties: { items: { type: array, items: { type: string } } } }`,
        `    gates:`,
        `      - { id: some, schema: { properties: { items: { minItems: 1 } } } }`,
        `      - { id: counted, message: at least one, predicate: { "==": [{ length: { var: output.items } }, 1] } }`,
      ]),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** 1-based line and column of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, at);
  return { line: before.split("\n").length, column: at - before.lastIndexOf("\n") };
}

describe("positions in a large stepfile", () => {
  it("places an error near the end at its line and column", { timeout: 2 * REPLY_MS }, () => {
    const text = largeStepfile((i, lines) => (i === 987 ? [...lines.slice(0, 3), "    colour: blue", ...lines.slice(3)] : lines));
    expect(fastParse(text)).toBeDefined();
    let error: unknown;
    try {
      loadStepfileText(text, "large.stepfile.yaml");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StepfileInvalid);
    expect((error as StepfileInvalid).issues).toStrictEqual([{ path: "steps[986].colour", message: "unknown field colour", ...positionOf(text, "colour: blue"), rule: "structure" }]);
  });

  it("places warnings of a stepfile that loads at their lines and columns", { timeout: 2 * REPLY_MS }, () => {
    const text = largeStepfile((i, lines) => (i === 3 || i === 999 ? lines.map((l) => l.replace(/instructions: ".*"/, `instructions: "   "`).replace("id: counted, message: at least one", `id: counted, message: ""`)) : lines));
    expect(fastParse(text)).toBeDefined();
    const loaded = loadStepfileText(text, "large.stepfile.yaml");
    // Step i's lines start after the 4 header lines, 6 lines a step; its instructions are its second line, its second gate its sixth.
    const line = (step: number, offset: number) => 4 + (step - 1) * 6 + offset + 1;
    const instructions = { column: `    instructions: `.length + 1 };
    const message = { column: `      - { id: counted, message: `.length + 1 };
    expect(loaded.warnings).toStrictEqual([
      { path: "steps[2].instructions", message: "the instructions are empty, so the agent is told nothing", line: line(3, 1), ...instructions, rule: "empty-text" },
      { path: "steps[2].gates[1].message", message: "the message is empty, so a failure explains nothing", line: line(3, 5), ...message, rule: "empty-text" },
      { path: "steps[998].instructions", message: "the instructions are empty, so the agent is told nothing", line: line(999, 1), ...instructions, rule: "empty-text" },
      { path: "steps[998].gates[1].message", message: "the message is empty, so a failure explains nothing", line: line(999, 5), ...message, rule: "empty-text" },
    ]);
  });
});
