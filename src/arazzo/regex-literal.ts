// A regex criterion's condition written as a JavaScript regular expression
// literal, `/^2\d\d$/i`, as authors who test their documents with JavaScript
// tools write it. The Criterion Object's regex condition is a pattern
// (versions/1.0.1.md at fc140d2), and read as one this literal's slashes
// must appear in the text, so it can never match what its author meant.
// JaredCE/Arazzo-Runner (at 72e272e, src/Expression.js,
// `checkRegexExpression`) also compiles the condition as a pattern, with no
// flags. So a condition that is a whole literal is read as one: its body is
// the pattern and its flags become RE2's inline flags, which the stepfile's
// match_all (which takes a pattern only) honours.
//
// A condition is a literal only when a JavaScript parser would take it as
// one: a body with no unescaped `/` outside a character class, and flags
// among JavaScript's own letters, so `/api/v1/` and `/usr/bin` stay
// patterns that match those slashes.

/**
 * JavaScript's flag letters, each as the RE2 inline flag it becomes ("": none
 * is needed, RE2 being always Unicode-aware and global only repeating the
 * search), or undefined: sticky anchors the match where the last one ended,
 * hasIndices reports positions, unicodeSets changes the class syntax.
 */
const FLAGS: Readonly<Record<string, string | undefined>> = { i: "i", m: "m", s: "s", u: "", g: "", y: undefined, d: undefined, v: undefined };
const READ = Object.keys(FLAGS).filter((f) => FLAGS[f] !== undefined);

export type RegexCondition = { pattern: string } | { problem: string };

/** The RE2 pattern a regex criterion's condition means: the condition itself, or a literal's body with its flags inline. */
export function regexCondition(condition: string): RegexCondition {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(condition);
  if (!literal || !isLiteralBody(literal[1]!) || ![...literal[2]!].every((f) => f in FLAGS)) return { pattern: condition };
  const [, body, flags] = literal as unknown as [string, string, string];
  const inline = new Set<string>();
  for (const [i, flag] of [...flags].entries()) {
    const meaning = FLAGS[flag];
    if (meaning === undefined) return { problem: `its flag ${flag} has no stepfile meaning (${READ.join(", ")} do)` };
    if (flags.indexOf(flag) !== i) return { problem: `it gives the flag ${flag} twice, which JavaScript refuses` };
    if (meaning) inline.add(meaning);
  }
  return { pattern: inline.size > 0 ? `(?${[...inline].join("")})${body}` : body };
}

/** Whether a JavaScript regex literal's body could be this: every `/` escaped or inside a character class. */
function isLiteralBody(body: string): boolean {
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) return false;
  }
  return true;
}
