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

// Character codes the scan compares with.
const NEWLINE = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
const HASH = 0x23; // #
const DOUBLE = 0x22; // "
const SINGLE = 0x27; // '
const BACKSLASH = 0x5c;
const PIPE = 0x7c; // |
const GREATER = 0x3e; // >
const OPEN_SQUARE = 0x5b; // [
const CLOSE_SQUARE = 0x5d; // ]
const OPEN_CURLY = 0x7b; // {
const CLOSE_CURLY = 0x7d; // }
const COMMA = 0x2c;
const COLON = 0x3a;
const QUESTION = 0x3f;
const DASH = 0x2d;
/** `previous` at the start of a line: no character yet. */
const LINE_START = -1;

/**
 * The characters the scan acts on; every other one only becomes `previous`.
 * Runs of the others are skipped by one regexp search from the offset rather than
 * one loop turn per character: a 3 MB key took 70-76 s of CPU instead of
 * 0.5 s in 7 of 42 test runs (issue 29), every profile inside this loop
 * after V8 had deoptimised it ("Insufficient type feedback"); the regexp
 * engine's scan does not depend on this function's feedback.
 */
const SPECIAL = /[\n\r\t "#'|>[\]{}]/g;
/** Where a double-quoted scalar's scan must look: its quote, an escape or a line break. */
const DOUBLE_QUOTED_STOP = /["\\\n]/g;
/** Where a single-quoted scalar's scan must look: its quote or a line break. */
const SINGLE_QUOTED_STOP = /['\n]/g;
/** 1 for each UTF-16 code unit SPECIAL does not match. */
const ORDINARY = new Uint8Array(65_536).fill(1);
for (const special of "\n\r\t \"#'|>[]{}") ORDINARY[special.charCodeAt(0)] = 0;

/**
 * Where the text's flow collections first nest deeper than `max`, or
 * undefined when they never do.
 *
 * Each character is visited once, read with charCodeAt, and every piece
 * of state is a small integer: a quoted scalar is skipped and its line
 * breaks counted in one pass (an `indexOf` for the next line break from
 * every quote made a long one-line text quadratic: 374 ms for a 589 KB
 * one-line JSON text, 32 ms now).
 */
export function flowTooDeep(text: string, max: number): NestingSite | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  /** The last character that was not a space or tab on this line, or LINE_START. */
  let previous = LINE_START;
  /** While in a block scalar: the indentation its parent line had; content lines are more indented. */
  let blockParent = -1;
  let indent = 0;
  let atIndent = true;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      line += 1;
      lineStart = i + 1;
      previous = LINE_START;
      indent = 0;
      atIndent = true;
      continue;
    }
    if (atIndent) {
      if (c === SPACE) {
        indent += 1;
        continue;
      }
      atIndent = false;
      if (blockParent >= 0) {
        if (indent > blockParent || c === CR || c === TAB) {
          // A block scalar's content line (or a blank one): text, not structure.
          i = skipLine(text, i);
          continue;
        }
        blockParent = -1;
      }
    }
    if (c === SPACE || c === TAB || c === CR) continue;
    if (ORDINARY[c] === 1) {
      // A run of characters that only become `previous`: skipped by the regexp
      // engine in one call, not one turn of this loop each (see SPECIAL).
      SPECIAL.lastIndex = i + 1;
      const next = SPECIAL.test(text) ? SPECIAL.lastIndex - 1 : length;
      previous = text.charCodeAt(next - 1);
      i = next - 1;
      continue;
    }
    const valueStart =
      previous === LINE_START ||
      (depth > 0 ? previous === OPEN_SQUARE || previous === OPEN_CURLY || previous === COMMA || previous === COLON || previous === QUESTION : previous === COLON || previous === DASH || previous === QUESTION);
    if (c === HASH && (i === lineStart || text.charCodeAt(i - 1) === SPACE || text.charCodeAt(i - 1) === TAB)) {
      i = skipLine(text, i);
      continue;
    }
    if ((c === DOUBLE || c === SINGLE) && valueStart) {
      // A quoted scalar may run over several lines: count them as it is skipped.
      const stops = c === DOUBLE ? DOUBLE_QUOTED_STOP : SINGLE_QUOTED_STOP;
      let j = i + 1;
      for (; j < length; j++) {
        stops.lastIndex = j;
        j = stops.test(text) ? stops.lastIndex - 1 : length;
        if (j >= length) break;
        const q = text.charCodeAt(j);
        if (q === NEWLINE) {
          line += 1;
          lineStart = j + 1;
        } else if (q === BACKSLASH && c === DOUBLE) {
          j += 1;
          if (j < length && text.charCodeAt(j) === NEWLINE) {
            line += 1;
            lineStart = j + 1;
          }
        } else if (q === c) {
          if (c === SINGLE && j + 1 < length && text.charCodeAt(j + 1) === SINGLE) j += 1;
          else break;
        }
      }
      i = j;
      previous = c;
      continue;
    }
    if ((c === PIPE || c === GREATER) && valueStart && depth === 0) {
      // The rest of the header line holds only indicators and a comment.
      blockParent = indentOfLine(text, lineStart);
      i = skipLine(text, i);
      continue;
    }
    if ((c === OPEN_SQUARE || c === OPEN_CURLY) && (depth > 0 || valueStart)) {
      depth += 1;
      if (depth > max) return { depth, line, column: i - lineStart + 1 };
    } else if ((c === CLOSE_SQUARE || c === CLOSE_CURLY) && depth > 0) depth -= 1;
    previous = c;
  }
  return undefined;
}

/** The index of the newline ending the line that holds `i` (or the text's end), less one so the loop sees the newline. */
function skipLine(text: string, i: number): number {
  const end = text.indexOf("\n", i);
  return (end === -1 ? text.length : end) - 1;
}

function indentOfLine(text: string, lineStart: number): number {
  let i = lineStart;
  while (i < text.length && text.charCodeAt(i) === SPACE) i += 1;
  return i - lineStart;
}

/** How deeply the value nests (a scalar at `depth` is `depth`, each collection one level); stops counting past MAX_DEPTH. Loops, not closures: it walks every value `yaml` reads and every aliased value the fast reader reads. */
export function depthOf(value: unknown, depth: number): number {
  if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return depth;
  let max = depth + 1;
  for (const inner of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof inner !== "object" || inner === null) continue;
    const d = depthOf(inner, depth + 1);
    if (d > max) max = d;
    if (max > MAX_DEPTH) break;
  }
  return max;
}
