// Canonical JSON (src/format/canonical-json.ts) gives exactly what the
// `canonicalize` package gives, the implementation it replaced, on every
// JSON value: identities and ledger hashes must never change with it. The
// package is the oracle here, on generated values (lone surrogates, -0,
// large and tiny numbers, names that sort differently by code unit and by
// code point) and on every stepfile and cases file in the repository.
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJsonText } from "../../src/format/canonical-json.js";
import { parseSource } from "../../src/format/source.js";
import { yamlCorpus } from "../support/yaml-corpus.js";

/** What each gives: its text, or the message it throws. */
function outcome(write: (value: unknown) => string | undefined, value: unknown): { text?: string | undefined; error?: string } {
  try {
    return { text: write(value) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function same(value: unknown): void {
  expect(outcome(canonicalJsonText, value)).toEqual(outcome((v) => canonicalize(v), value));
}

describe("canonical JSON", () => {
  it("is canonicalize's on generated JSON values, surrogates and all", () => {
    fc.assert(fc.property(fc.jsonValue({ stringUnit: "binary", maxDepth: 6 }), same), { numRuns: 3000 });
    fc.assert(fc.property(fc.jsonValue({ stringUnit: "grapheme", maxDepth: 4 }), same), { numRuns: 1000 });
  });

  it("is canonicalize's on numbers JSON spells in more than one way, and on what it cannot spell", () => {
    fc.assert(fc.property(fc.double(), same), { numRuns: 3000 });
    for (const value of [0, -0, 1e21, 1e-7, 123456789012345680000, 5e-324, Number.MAX_VALUE, 0.1 + 0.2, NaN, Infinity, -Infinity, [NaN], { a: -Infinity }]) same(value);
  });

  it("sorts names by UTF-16 code units, as RFC 8785 section 3.2.3 asks", () => {
    // U+FB33 sorts before U+1F600 by code point and after it by code unit (the surrogate pair starts with 0xD83D).
    const value = { "\u{1F600}": 1, "\uFB33": 2, b: 3, a: 4, "": 5, "10": 6, "9": 7 };
    same(value);
    expect(canonicalJsonText(value)).toBe('{"":5,"10":6,"9":7,"a":4,"b":3,"\u{1F600}":1,"\uFB33":2}');
  });

  it("is canonicalize's on toJSON, members and items that are undefined, lone surrogates, and cycles", () => {
    same({ at: new Date(0), nested: { toJSON: () => ({ z: 1, a: [undefined, 2] }) } });
    same({ a: undefined, b: 1, c: [undefined] });
    same(["\ud800"]);
    same({ "\udc00": 1 });
    same("\ud83d\ude00");
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    same(cycle);
    // A value shared, not a cycle, is written each time.
    const shared = { x: 1 };
    same({ a: shared, b: [shared, shared] });
    same(undefined);
  });

  it("is canonicalize's on every stepfile and cases file in the repository", () => {
    let read = 0;
    for (const text of yamlCorpus) {
      const parsed = parseSource(text);
      if ("issues" in parsed) continue;
      same(parsed.data);
      read += 1;
    }
    expect(read).toBeGreaterThan(100);
  });
});
