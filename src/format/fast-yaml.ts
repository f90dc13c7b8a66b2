// A fast read of the plain shape most stepfiles have, without positions.
// The `yaml` parser keeps every node's position, and its parse was three
// quarters of loading a 1,000-step stepfile (about 1.3 ms per step, most of
// it building its concrete syntax tree and collecting its garbage);
// positions are needed only when an issue must be placed. js-yaml builds
// plain data about eight times faster but is another parser. Where the two
// could read a text differently (anchors, aliases, tags, merge keys,
// directives and document markers, explicit keys, flow collections over
// several lines unless the whole document is one, as a JSON text is,
// multi-line scalars, block scalars with an explicit indentation,
// escapes beyond JSON's, tabs, keys that are not scalars on their line,
// a flow mapping entry that is a null or collection key and no value, a
// scalar pressed against a
// quoted scalar or a closed flow collection, plain scalars that start like
// an indicator), this declines, as it does
// for anything js-yaml refuses, and source.ts reads the text with `yaml`
// as before. The screen is `yaml`'s own lexer (its cheap first pass), and
// plain scalars are typed by `yaml`'s own core-schema resolvers.
// test/fuzz/yaml-parse.fuzz.test.ts holds the result to the old parse on
// every stepfile and cases file in the repository and on mutations of them.
import { defineScalarTag, load, mapTag, NOT_RESOLVED, Schema, seqTag, strTag } from "js-yaml";
import { CST, isScalar, Lexer, parseDocument } from "yaml";

/** `yaml`'s YAML 1.2 core-schema tags that type a plain scalar by a pattern, in its order of trial. */
const coreTags = (parseDocument("", { version: "1.2" }).schema.tags as ReadonlyArray<{ default?: unknown; test?: RegExp; resolve?: (source: string, onError: (message: string) => void, options: object) => unknown }>).filter(
  (tag) => tag.default === true && tag.test !== undefined && tag.resolve !== undefined,
);

/** Thrown by a resolver `yaml` would have reported an error from: the fast read declines. */
class Declined extends Error {}

const plainScalars = defineScalarTag("!stepgate/plain-scalar", {
  implicit: true,
  // Only read here, never written.
  identify: () => false,
  resolve: (source) => {
    for (const tag of coreTags) {
      if (!tag.test!.test(source)) continue;
      const value = tag.resolve!(source, () => {
        throw new Declined();
      }, {});
      // Some resolvers return a node (booleans keep their spelling); its value is what the document holds.
      return isScalar(value) ? value.value : value;
    }
    return NOT_RESOLVED;
  },
});

const schema = new Schema([strTag, seqTag, mapTag, plainScalars]);

/** The longest implicit key (with the space before its `:`) read here; `yaml` refuses one over 1024 characters in strict mode. */
const LONGEST_KEY = 1000;

/**
 * A double-quoted scalar whose escapes are all JSON's, the only ones read
 * here. Matched from its start, so an escaped backslash before another
 * character (`"\\\\."`, a regex's `\\.`) is the escape it is.
 */
const JSON_ESCAPES_ONLY = /^"(?:[^\\]|\\(?:[\\"/bfnrt]|u[0-9a-fA-F]{4}))*"$/;

/**
 * A plain scalar that starts like an indicator or a document marker
 * (`---` indented is text to `yaml`, a document start to js-yaml); a sign
 * before a digit or a dot is a number, as common as it is unambiguous.
 */
const INDICATOR_START = /^(?:[?:,[\]{}#&*!|>'"%@`]|-(?![0-9.])|\.\.\.)/;

/** A plain key `yaml` reads as null (it names such a key "", js-yaml "null"). */
const NULL_KEY = /^(?:~|[Nn]ull|NULL)?$/;

/** The document's data, or undefined where only the positioned parse can say what the text holds. */
export function fastParse(text: string): { data: unknown } | undefined {
  if (!withinScreen(text)) return undefined;
  try {
    const data = load(text, { schema });
    // An empty document: `yaml` gives null, js-yaml undefined.
    return data === undefined ? undefined : { data };
  } catch {
    // Anything js-yaml refuses (duplicate keys, syntax, depth): `yaml` says what and where.
    return undefined;
  }
}

/** Whether every token of the text is of the plain shape this reads (see the top of the file). */
function withinScreen(text: string): boolean {
  if (/[\t\r\uFEFF]/.test(text)) return false;
  /** Open flow collections, innermost last: "{" or "[". */
  const flow: string[] = [];
  /**
   * For each open flow mapping, innermost last, where its current entry is:
   * not begun, at its key, at a key that reads as null or is a collection,
   * or past its `:`. An entry that ends at such a key (`{ a: 1, null }`) is
   * read differently by `yaml` and js-yaml; one that ends at another key
   * (`{ a: 1, b }`) is that key with a null value to both.
   */
  const entries: Array<"begin" | "key" | "odd-key" | "value"> = [];
  /** The last token that was not a space, and the last plain scalar's text. */
  let previous = "newline";
  let lastPlain = "";
  let afterSpace = false;
  /** Characters from the start of the last scalar to here, for a key's length. */
  let keyLength = 0;
  let plainNext = false;
  let blockNext = false;
  /** Whether anything but spaces, comments and line breaks came yet; whether the document is one flow collection, and it has closed. */
  let content = false;
  let rootFlow = false;
  let rootDone = false;
  for (const source of new Lexer().lex(text)) {
    const type = plainNext ? (blockNext ? "block-scalar" : "plain-scalar") : CST.tokenType(source);
    if (plainNext) blockNext = false;
    plainNext = false;
    // A token the lexer does not name: an error, which `yaml` reports.
    if (!type) return false;
    if (type === "space") {
      afterSpace = true;
      keyLength += source.length;
      continue;
    }
    if (type !== "newline" && type !== "comment" && type !== "doc-mode" && type !== "scalar") {
      // Nothing but comments after a document that is one flow collection.
      if (rootDone) return false;
      if (!content && (type === "flow-map-start" || type === "flow-seq-start")) rootFlow = true;
      content = true;
    }
    // A scalar right after a quoted scalar or a closed flow collection, with no space between, is an error to `yaml` alone.
    if (type.endsWith("scalar") && !afterSpace && /^(?:single-quoted-scalar|double-quoted-scalar|flow-map-end|flow-seq-end)$/.test(previous)) return false;
    if (flow.at(-1) === "{") {
      const at = entries.length - 1;
      if (type === "map-value-ind") entries[at] = "value";
      else if (type === "comma" || type === "flow-map-end") {
        if (entries[at] === "odd-key") return false;
        entries[at] = "begin";
      } else if (entries[at] === "begin" && type !== "scalar" && (type.endsWith("scalar") || type === "flow-map-start" || type === "flow-seq-start")) {
        entries[at] = type.startsWith("flow") || (type === "plain-scalar" && NULL_KEY.test(source)) ? "odd-key" : "key";
      }
    }
    switch (type) {
      case "doc-mode":
        continue;
      case "scalar":
        // The lexer marks a plain scalar (or a block scalar's text after its header), then gives its text.
        plainNext = true;
        continue;
      case "block-scalar-header":
        // Literal and folded, clipped, stripped or kept; no explicit indentation.
        if (!/^[|>][-+]?$/.test(source)) return false;
        blockNext = true;
        break;
      case "block-scalar":
        // Its text runs to the end of its last line.
        previous = "newline";
        afterSpace = false;
        keyLength = 0;
        continue;
      case "plain-scalar":
        if (source.includes("\n") || source === "<<" || INDICATOR_START.test(source)) return false;
        lastPlain = source;
        break;
      case "single-quoted-scalar":
      case "double-quoted-scalar":
        if (source.includes("\n") || (type === "double-quoted-scalar" && !JSON_ESCAPES_ONLY.test(source))) return false;
        break;
      case "newline":
        // A flow collection may span lines only as the whole document, as a JSON text is.
        if (flow.length > 0 && !rootFlow) return false;
        break;
      case "comment":
        if (!afterSpace && previous !== "newline") return false;
        break;
      case "flow-map-start":
      case "flow-seq-start":
        flow.push(source);
        if (type === "flow-map-start") entries.push("begin");
        break;
      case "flow-map-end":
      case "flow-seq-end":
        if (flow.pop() !== (type === "flow-map-end" ? "{" : "[")) return false;
        if (type === "flow-map-end") entries.pop();
        if (flow.length === 0 && rootFlow) rootDone = true;
        break;
      case "comma":
        if (flow.length === 0) return false;
        break;
      case "seq-item-ind":
        if (flow.length > 0) return false;
        break;
      case "map-value-ind":
        // A key is a scalar on this line, not a null, not long; and no implicit pair in a flow sequence.
        if (flow.at(-1) === "[" || keyLength > LONGEST_KEY) return false;
        if (previous === "plain-scalar" ? NULL_KEY.test(lastPlain) : previous !== "single-quoted-scalar" && previous !== "double-quoted-scalar") return false;
        break;
      default:
        // Anchors, aliases, tags, directives, document markers, explicit keys, errors.
        return false;
    }
    keyLength = type.endsWith("scalar") ? source.length : 0;
    previous = type;
    afterSpace = false;
  }
  return flow.length === 0;
}
