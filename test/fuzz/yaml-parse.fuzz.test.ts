// The parse layer against its reference (test/support/yaml-reference.ts):
// src/format/source.ts reads plain-shaped text with js-yaml and checks
// duplicate keys itself, and both must give exactly what `yaml` alone gave
// before: the same data, key order included, or the same issues with the
// same lines and columns. Mutations aim at where two YAML parsers could
// differ (indicators, quoting, escapes, block scalars, keys, comments).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastParse } from "../../src/format/fast-yaml.js";
import { parseSource } from "../../src/format/source.js";
import { yamlCorpus } from "../support/yaml-corpus.js";
import { referenceParse } from "../support/yaml-reference.js";
import { FUZZ_RUNS, fuzzTimeout } from "./runs.js";

/** Asserts parseSource and the reference agree on the text; says whether the fast read took it. */
function agreesWithReference(text: string): boolean {
  const expected = referenceParse(text);
  const actual = parseSource(text);
  if ("issues" in expected) {
    expect(actual, JSON.stringify(text.slice(0, 400))).toStrictEqual(expected);
    return false;
  }
  expect("data" in actual, JSON.stringify(text.slice(0, 400))).toBe(true);
  const data = (actual as { data: unknown }).data;
  expect(data).toStrictEqual(expected.data);
  expect(JSON.stringify(data)).toBe(JSON.stringify(expected.data));
  return fastParse(text) !== undefined;
}

const pieces = [
  ": ", ":", " #c", "#", "\n", "\n  ", "\n- ", "- ", "  ", "'", "''", '"', '\\"', "\\", "\\n", "\\x41", "\\u00e9", "\\ud800", "\\U0001F600", "\\/", "\\ ",
  "|", "|-", "|+", ">", ">-", ">+", "|2", "\n\n", "\n   \n", "{", "}", "[", "]", ",", ", ", "~", "null", "Null", "true", "False", "0x1F", "0o17", "017", "1_000",
  "1e3", ".5", "-0", ".inf", "-.Inf", ".nan", "<<", "&a ", "*a", "!!str ", "? ", "---\n", "...\n", "%YAML 1.2\n", "__proto__", "a: b: c", "@", "`", "%", "\t", "\r\n", "\u00a0",
  "\u0000", "\u001b", "\u007f", "\u0085", "\u2028", "\uFFFE", "\uFEFF", "\ud83d", "-0: ", "0x1F: ", "0o7: ", ".inf: ", "1e3: ", "TRUE: ", "~: ", "'': ", '"": ', "'a''b'", "- - ",
  // Flow collections over several lines (read fast when the whole document is one) and escaped backslashes.
  "{\n", "\n}", "[\n", "\n]", ",\n", ",\n  ", '"k":', '"k": ', '\n"k"', ":\n", "\n,", "\n#c\n", "\n\n", "\\\\.", "\\\\s", '\\\\"', "\\\\\\", "\n---\n", "\n...\n", "{}", "[]",
];
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  // Copies a line after itself: duplicate keys, list items, block scalar lines.
  fc.record({ kind: fc.constant("line" as const), at: fc.nat() }),
);
type Edit = { kind: "insert"; at: number; text: string } | { kind: "delete"; at: number; length: number } | { kind: "line"; at: number };

function apply(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of edits) {
    const at = out.length === 0 ? 0 : e.at % out.length;
    if (e.kind === "insert") out = out.slice(0, at) + e.text + out.slice(at);
    else if (e.kind === "delete") out = out.slice(0, at) + out.slice(at + e.length);
    else {
      const start = out.lastIndexOf("\n", at - 1) + 1;
      const end = out.indexOf("\n", at);
      const line = out.slice(start, end === -1 ? out.length : end + 1);
      out = out.slice(0, start) + line + (line.endsWith("\n") ? "" : "\n") + out.slice(start);
    }
  }
  return out;
}

// Mutations of the few recordings over 64 KB would spend the run's time on parsing them.
const mutable = yamlCorpus.filter((text) => text.length <= 64 * 1024);

describe("the parse layer against yaml alone", () => {
  it("agrees on every stepfile and cases file in the repository as it is", { timeout: fuzzTimeout(100) }, () => {
    for (const text of yamlCorpus) agreesWithReference(text);
  });

  it("agrees on every mutation of every stepfile and cases file in the repository", { timeout: fuzzTimeout(1_000) }, () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.constantFrom(...mutable), fc.array(mutation, { minLength: 1, maxLength: 4 }), (text, edits) => {
        if (agreesWithReference(apply(text, edits))) fast += 1;
      }),
      { numRuns: FUZZ_RUNS * 4 },
    );
    // A property that never reached the fast read would prove nothing about it.
    expect(fast).toBeGreaterThan(0);
  });

  it("agrees on JSON texts, spread over lines or not, and on mutations of them", { timeout: fuzzTimeout(100) }, () => {
    let fast = 0;
    const json = fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, 4));
    fc.assert(
      fc.property(json, fc.array(mutation, { maxLength: 3 }), ([value, indent], edits) => {
        if (agreesWithReference(apply(JSON.stringify(value, null, indent), edits))) fast += 1;
      }),
      { numRuns: FUZZ_RUNS * 8 },
    );
    expect(fast).toBeGreaterThan(0);
  });

  it("agrees on small documents built from YAML's pieces", { timeout: fuzzTimeout(100) }, () => {
    const line = fc.tuple(fc.constantFrom("", "  ", "    ", "- ", "  - "), fc.array(fc.constantFrom(...pieces, "a", "b", "k", "1", "x y"), { maxLength: 6 }));
    let fast = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        if (agreesWithReference(lines.map(([indent, parts]) => indent + parts.join("")).join("\n") + "\n")) fast += 1;
      }),
      { numRuns: FUZZ_RUNS * 8 },
    );
    expect(fast).toBeGreaterThan(0);
  });
});
