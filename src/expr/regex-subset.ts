// Patterns RE2 surely accepts, told without running re2js's parser. Why by
// hand: a load must know that every pattern in a stepfile is valid before
// it answers (an invalid one is a refusal), and re2js's parser, run cold on
// a first launch, was about a fifteenth of the CPU before the first
// tools/list answer of 28 user stepfiles (issue 27 item 7): some 0.3 ms a
// pattern, where V8's own regexp engine tells the same in microseconds. No
// library says which patterns two regexp dialects agree on.
//
// The subset is what stepfiles and API documents write: literals (printable
// ASCII, tab, CR, LF, and the rest of the Basic Multilingual Plane but
// surrogates), `.`, anchors (`^ $ \A \z \b \B`), the class escapes
// `\d \s \w` (and their capitals), `\p{..}`/`\P{..}` of a general category,
// `\xHH` and `\x{H..}`, `\n \r \t \f \v`, escaped punctuation, bracket
// classes of those (negated or not, no nested `[`), groups plain or `(?:`,
// `|`, quantifiers (a counted one only on a single character or class), and
// inline flags `(?ims)` at the very start. Within it RE2 (re2js's
// Perl-flavoured parser) refuses exactly what ECMAScript's Unicode mode
// refuses of the same pattern spelled for it (`\x{H}` as `\u{H}`, `\A` and
// `\z` as `^` and `$`, the flags dropped): unbalanced groups, ranges out of
// order, `{3,2}`, a quantifier with nothing to repeat, a code point past
// U+10FFFF; except repeat counts over 1000, checked here. A pattern outside
// the subset, or one this cannot vouch for, is left to re2js, so its
// refusal keeps re2js's words. test/expr/regex.test.ts holds every pattern
// this accepts to RE2JS.compile, on generated patterns around the subset's
// edges.

/** General categories both RE2 and ECMAScript name (`Cn`, unassigned, is ECMAScript's only). */
const CATEGORY = "(?:[LMNPSZC]|L[ultmo]|M[nce]|N[dlo]|P[cdseifo]|S[mcko]|Z[slp]|C[cfos])";
/** A literal: not a metacharacter, a control character (but tab, LF, CR) or a surrogate. */
const LITERAL = String.raw`[^\\^$.|?*+()[\]{}\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]`;
/** An escape both dialects read alike, once `\x{H}` is spelled `\u{H}`. */
const ESCAPE = String.raw`\\(?:[dDsSwWnrtfv\\^$.|?*+()[\]{}/-]|x[0-9A-Fa-f]{2}|x\{[0-9A-Fa-f]{1,6}\}|[pP]\{${CATEGORY}\})`;
/** Inside brackets: not `^` (so `[^]`, empty in ECMAScript, cannot pass), `]`, `[` or `\` unescaped. */
const CLASS_ITEM = String.raw`(?:[^\\^\][\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]|${ESCAPE})`;
const ONE_CHARACTER = String.raw`(?:${LITERAL}|\.|${ESCAPE}|\[\^?${CLASS_ITEM}+\])`;
const QUANTIFIER = String.raw`[*+?]\??`;
const COUNTED = String.raw`\{\d{1,4}(?:,\d{0,4})?\}\??`;

/** The subset's tokens after any leading flags, in any order: structure is left to the ECMAScript parse. */
const SUBSET = new RegExp(String.raw`^(?:\(\?[ims]{1,3}\))?(?:${ONE_CHARACTER}(?:${QUANTIFIER}|${COUNTED})?|\)(?:${QUANTIFIER})?|\((?:\?:)?|\||[\^$]|\\[bBAz])*$`);
/** What ECMAScript spells differently, escaped backslashes matched first so `\\x{41}` stays a backslash and text. */
const RESPELL = /\\\\|\\x\{([0-9A-Fa-f]{1,6})\}|\\A|\\z|^\(\?[ims]{1,3}\)/g;

/** Repeat counts, found past escapes (so `\x{800}` is no count and `\\{2}` is one); a count in brackets is counted too, which only errs towards re2js. */
const COUNTS = /\\x\{[0-9A-Fa-f]{1,6}\}|\\[pP]\{[A-Za-z]+\}|\\[^]|\{(\d+)(?:,(\d*))?\}/g;

/** RE2's largest repeat count; keeping the sum of all counts under it also keeps the program small. */
const MOST_REPEATS = 1000;
/** Longer patterns are left to re2js: nesting and program size stay far below its limits. */
const LONGEST = 200;

/** Whether RE2 surely accepts `pattern` (with any flags it supports); false means "ask re2js", not "invalid". */
export function surelyValidUnderRe2(pattern: string): boolean {
  if (pattern.length > LONGEST || !SUBSET.test(pattern)) return false;
  let repeats = 0;
  for (const count of pattern.matchAll(COUNTS)) if (count[1] !== undefined) repeats += Math.max(Number(count[1]), Number(count[2] || 0));
  if (repeats > MOST_REPEATS) return false;
  const spelled = pattern.replace(RESPELL, (token: string, hex: string | undefined) =>
    token === "\\\\" ? token : hex !== undefined ? `\\u{${hex}}` : token === "\\A" ? "^" : token === "\\z" ? "$" : "",
  );
  try {
    new RegExp(spelled, "u");
    return true;
  } catch {
    return false;
  }
}
