// How deeply a YAML or JSON text's flow collections (`[...]`, `{...}`)
// nest, read from the characters alone, before any parser sees the text.
// A one-line JSON text 1,000 objects deep made the `yaml` parser exhaust
// V8's regexp compiler (a fatal error, not an exception: the process
// aborted, issue 29), so a stack-overflow catch around the parse is not
// enough; this scan is linear, keeps no stack and cannot fail.
//
// No library reports nesting without parsing, hence this hand-written
// scan. It counts what a YAML 1.2 reader would: brackets outside quoted
// scalars, comments and block scalars, and in block context only where a
// value may start (a plain scalar such as `x[0` holds no collection). It
// can only over-count for a text that is not YAML anyway; block nesting
// (by indentation) is left to the parsers, which fail on it with a catchable
// RangeError (source.ts).

/** Deepest nesting a stepfile (or a document it reads) may have; deeper input would overflow recursive walkers. */
export const MAX_DEPTH = 128;

export interface NestingSite {
  depth: number;
  /** 1-based line and column of the bracket that went past the bound. */
  line: number;
  column: number;
}

/** Where the text's flow collections first nest deeper than `max`, or undefined when they never do. */
export function flowTooDeep(text: string, max: number): NestingSite | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  /** The last character that was not a space or tab on this line, or "" at its start. */
  let previous = "";
  /** While in a block scalar: the indentation its parent line had; content lines are more indented. */
  let blockParent = -1;
  let indent = 0;
  let atIndent = true;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line += 1;
      lineStart = i + 1;
      previous = "";
      indent = 0;
      atIndent = true;
      continue;
    }
    if (atIndent) {
      if (c === " ") {
        indent += 1;
        continue;
      }
      atIndent = false;
      if (blockParent >= 0) {
        if (indent > blockParent || c === "\r" || c === "\t") {
          // A block scalar's content line (or a blank one): text, not structure.
          i = skipLine(text, i);
          continue;
        }
        blockParent = -1;
      }
    }
    if (c === " " || c === "\t" || c === "\r") continue;
    const valueStart = depth > 0 ? previous === "" || "[{,:?".includes(previous) : previous === "" || previous === ":" || previous === "-" || previous === "?";
    if (c === "#" && (i === lineStart || text[i - 1] === " " || text[i - 1] === "\t")) {
      i = skipLine(text, i);
      continue;
    }
    if ((c === '"' || c === "'") && valueStart) {
      const end = skipQuoted(text, i, c);
      // A quoted scalar may run over several lines.
      for (let j = text.indexOf("\n", i); j !== -1 && j < end; j = text.indexOf("\n", j + 1)) {
        line += 1;
        lineStart = j + 1;
      }
      i = end;
      previous = c;
      continue;
    }
    if ((c === "|" || c === ">") && valueStart && depth === 0) {
      // The rest of the header line holds only indicators and a comment.
      blockParent = indentOfLine(text, lineStart);
      i = skipLine(text, i);
      continue;
    }
    if ((c === "[" || c === "{") && (depth > 0 || valueStart)) {
      depth += 1;
      if (depth > max) return { depth, line, column: i - lineStart + 1 };
    } else if ((c === "]" || c === "}") && depth > 0) depth -= 1;
    previous = c;
  }
  return undefined;
}

/** The index of the newline ending the line that holds `i` (or the text's end), less one so the loop sees the newline. */
function skipLine(text: string, i: number): number {
  const end = text.indexOf("\n", i);
  return (end === -1 ? text.length : end) - 1;
}

/** The index of a quoted scalar's closing quote (or the text's end): `\` escapes in double quotes, `''` in single ones. */
function skipQuoted(text: string, start: number, quoteChar: string): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quoteChar === '"' && c === "\\") i += 1;
    else if (c === quoteChar) {
      if (quoteChar === "'" && text[i + 1] === "'") i += 1;
      else return i;
    }
  }
  return text.length;
}

function indentOfLine(text: string, lineStart: number): number {
  let i = lineStart;
  while (text[i] === " ") i += 1;
  return i - lineStart;
}
