// Patterns RE2 surely accepts, told without running re2js's parser. Why by
// hand: a load must know that every pattern in a stepfile is valid before
// it answers (an invalid one is a refusal), and re2js's parser, run cold on
// a first launch, was about a fifteenth of the CPU before the first
// tools/list answer of 28 user stepfiles (issue 27 item 7): some 0.3 ms a
// pattern, where V8's own regexp engine tells the same in microseconds. No
// library says which patterns two regexp dialects agree on.
//
// The subset is what stepfiles and API documents write: printable ASCII
// literals, `.`, anchors, `\b`, the class escapes `\d \s \w` (and their
// capitals), escaped punctuation, `\n \r \t \f \v`, bracket classes of
// those (negated or not, no nested `[`), groups plain or `(?:`, `|`, and
// quantifiers, a counted one only on a single character or class. Within it
// RE2 (re2js's Perl-flavoured parser) refuses exactly what ECMAScript's
// Unicode mode refuses (unbalanced groups, ranges out of order, `{3,2}`,
// a quantifier with nothing to repeat), except repeat counts over 1000,
// which are checked here. A pattern outside the subset, or one this cannot
// vouch for, is left to re2js, so its refusal keeps re2js's words.
// test/expr/regex.test.ts holds every pattern this accepts to RE2JS.compile,
// on generated patterns around the subset's edges.

/** A printable ASCII character that is not a metacharacter. */
const LITERAL = String.raw`[^\\^$.|?*+()[\]{}\x00-\x1f\x7f-\uffff]`;
/** An escape both dialects read alike: a class, a control character, or punctuation itself. */
const ESCAPE = String.raw`\\[dDsSwWnrtfv\\^$.|?*+()[\]{}/-]`;
/** Inside brackets: not `^` (so `[^]`, empty in ECMAScript, cannot pass), `]`, `[` or `\` unescaped. */
const CLASS_ITEM = String.raw`(?:[^\\^\][\x00-\x1f\x7f-\uffff]|${ESCAPE})`;
const ONE_CHARACTER = String.raw`(?:${LITERAL}|\.|${ESCAPE}|\[\^?${CLASS_ITEM}+\])`;
const QUANTIFIER = String.raw`[*+?]\??`;
const COUNTED = String.raw`\{\d{1,4}(?:,\d{0,4})?\}\??`;

/** The subset's tokens, in any order: structure is left to the ECMAScript parse. */
const SUBSET = new RegExp(String.raw`^(?:${ONE_CHARACTER}(?:${QUANTIFIER}|${COUNTED})?|\)(?:${QUANTIFIER})?|\((?:\?:)?|\||[\^$]|\\[bB])*$`);

/** RE2's largest repeat count; keeping the sum of all counts under it also keeps the program small. */
const MOST_REPEATS = 1000;
/** Longer patterns are left to re2js: nesting and program size stay far below its limits. */
const LONGEST = 200;

/** Whether RE2 surely accepts `pattern` (any flags it supports); false means "ask re2js", not "invalid". */
export function surelyValidUnderRe2(pattern: string): boolean {
  if (pattern.length > LONGEST || !SUBSET.test(pattern)) return false;
  let repeats = 0;
  for (const count of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) repeats += Math.max(Number(count[1]), Number(count[2] || 0));
  if (repeats > MOST_REPEATS) return false;
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}
