// Regular expressions with RE2 semantics (spec section 6): linear time,
// lookbehind allowed, no lookahead or backreferences. Used by match_all,
// setting patterns, and (through re2AjvRegExp) JSON Schema pattern and
// patternProperties, so no pattern in a stepfile can backtrack for seconds.
import { RE2JS, RE2Set } from "re2js";
import { surelyValidUnderRe2 } from "./regex-subset.js";

/** JavaScript flag letters RE2 can honour; "u" needs nothing (RE2 is always Unicode-aware), "g"/"y" concern iteration, not the pattern. */
const flagBits: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
  g: 0,
  y: 0,
};

/**
 * Compile a pattern under RE2. Throws an Error naming the pattern and the
 * reason for anything RE2 rejects (lookahead, backreferences, bad syntax)
 * and for unknown flags. ECMAScript `\uXXXX`, `\u{...}` escapes (which JSON
 * Schema patterns use) are translated to RE2's `\x{...}` first.
 */
export function compileRegex(pattern: string, flags = ""): RE2JS {
  const key = `${flags}/${pattern}`;
  const known = compiledPatterns.get(key);
  if (known) return known;
  const regex = compileNow(pattern, flags);
  if (compiledPatterns.size >= PATTERNS_KEPT) compiledPatterns.clear();
  compiledPatterns.set(key, regex);
  return regex;
}

/**
 * Compiled patterns by flags and pattern. RE2 compiles a pattern more
 * slowly than anything else done with it (a gate's pattern may be compiled
 * by ajv and by match_all alike), and a compiled RE2JS holds no match
 * state, so one is shared; what does not compile is not kept, so it throws
 * the same error every time.
 */
const compiledPatterns = new Map<string, RE2JS>();
const PATTERNS_KEPT = 1_000;

/**
 * Throw exactly what compileRegex would throw for this pattern, without
 * compiling it. A load needs to know that every pattern of a stepfile is
 * valid, but a pattern is used only once a gate or expression runs, and
 * compiling one cold costs about three times parsing it (issue 27 item 7).
 * RE2Set.add parses and simplifies with the same flags RE2JS.compile uses
 * (re2js 2.10.0, build/index.js: `RE2Set.add` and `RE2JS.compile` both
 * call `Parser.parse` on the pattern with the flags' prefixes); what
 * compile does after the parse (Simplify, the prefilter, the compiler, the
 * one-pass program) throws only re2js's internal errors. A pattern in the
 * subset both dialects read alike (regex-subset.ts) is not parsed at all.
 * Valid patterns are remembered, so a pattern is parsed once per process.
 */
export function checkRegex(pattern: string, flags = ""): void {
  const key = `${flags}/${pattern}`;
  if (compiledPatterns.has(key) || checkedPatterns.has(key)) return;
  const bits = flagBitsOf(pattern, flags);
  if (!surelyValidUnderRe2(pattern)) rethrowAsUnreadable(pattern, () => new RE2Set(RE2Set.UNANCHORED, bits).add(translateEscapes(pattern)));
  if (checkedPatterns.size >= PATTERNS_KEPT) checkedPatterns.clear();
  checkedPatterns.add(key);
}

/** Patterns checkRegex found valid, by flags and pattern, as compiledPatterns keys them. */
const checkedPatterns = new Set<string>();

function compileNow(pattern: string, flags: string): RE2JS {
  const bits = flagBitsOf(pattern, flags);
  return rethrowAsUnreadable(pattern, () => RE2JS.compile(translateEscapes(pattern), bits));
}

function flagBitsOf(pattern: string, flags: string): number {
  let bits = RE2JS.LOOKBEHINDS;
  for (const flag of flags) {
    const bit = flagBits[flag];
    if (bit === undefined) throw new Error(`regular expression flag "${flag}" is not supported (pattern ${JSON.stringify(pattern)})`);
    bits |= bit;
  }
  return bits;
}

function rethrowAsUnreadable<T>(pattern: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`regular expression ${JSON.stringify(pattern)} does not compile under RE2: ${reason}`, { cause: error });
  }
}

/**
 * Rewrite ECMAScript Unicode escapes into RE2 syntax: `\uD83D\uDE00` (a
 * surrogate pair) and `\u{1F600}` become `\x{1F600}`, `\u00E9` becomes
 * `\x{00E9}`. Other escapes are copied untouched, and an escaped backslash
 * (`\\u`) is not an escape of `u`.
 */
export function translateEscapes(pattern: string): string {
  if (!pattern.includes("\\u")) return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char !== "\\" || i + 1 >= pattern.length) {
      out += char;
      continue;
    }
    const next = pattern[i + 1]!;
    if (next !== "u") {
      out += char + next;
      i++;
      continue;
    }
    const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i + 2));
    if (braced) {
      out += `\\x{${braced[1]}}`;
      i += 1 + braced[0].length;
      continue;
    }
    const unit = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 2));
    if (!unit) {
      out += char + next;
      i++;
      continue;
    }
    let code = parseInt(unit[0], 16);
    i += 5;
    const low = /^\\u([dD][c-fC-F][0-9A-Fa-f]{2})/.exec(pattern.slice(i + 1));
    if (code >= 0xd800 && code <= 0xdbff && low) {
      code = 0x10000 + ((code - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
      i += 6;
    }
    out += `\\x{${code.toString(16).toUpperCase()}}`;
  }
  return out;
}

/** What ajv needs from a regular expression. */
export interface AjvRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * A factory for ajv's `code.regExp` option:
 *
 * @example
 * const ajv = new Ajv2020({ code: { regExp: re2AjvRegExp } });
 *
 * ajv caches compiled patterns by the object's toString(), so each object
 * answers `/<pattern>/<flags>`; a shared string would make every pattern
 * collide with the first.
 */
export const re2AjvRegExp = Object.assign(
  function re2AjvRegExp(pattern: string, flags: string): AjvRegExp {
    const regex = compileRegex(pattern, flags);
    const text = `/${pattern}/${flags}`;
    return {
      test: (input: string) => regex.test(input),
      toString: () => text,
    };
  },
  // ajv writes this into standalone validation code; Stepgate never
  // generates standalone code, so it only has to name the function.
  { code: "re2AjvRegExp" },
);
