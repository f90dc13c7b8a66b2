// Error messages quote what they were given (a key, a scalar, a URL), and
// what they were given may be anything: a 50 MB binary file once made one
// line of 124 MB. Every quote is capped here, at QUOTE_CHARS characters and
// a visible "...", and a message can cap every quote it already holds.

/** Longest quoted input shown in a message, before "...". */
export const QUOTE_CHARS = 200;

/** Most issues one StepfileInvalid or CasesInvalid lists; the rest are counted. */
export const LISTED_ISSUES = 100;

/** `text` cut to QUOTE_CHARS characters, with "..." when it was cut. */
export function capText(text: string, max = QUOTE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** A JSON-quoted, capped form of an input string. */
export function quote(text: string): string {
  return JSON.stringify(capText(text));
}

// A JSON string literal: what JSON.stringify and the YAML parser quote with.
const QUOTED = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * Caps every double-quoted literal in `message`, and the message itself
 * at a few quotes' worth, for messages built by libraries (the YAML parser
 * quotes whole tokens).
 */
export function capQuotes(message: string): string {
  const capped = message.replace(QUOTED, (literal) => (literal.length > QUOTE_CHARS + 2 ? `${literal.slice(0, QUOTE_CHARS + 1)}..."` : literal));
  return capText(capped, QUOTE_CHARS * 5);
}

/** A path into a document names its keys, which are input too: quoted ones capped, and the whole at QUOTE_CHARS. */
export function capPath(path: string): string {
  return capText(capQuotes(path));
}
