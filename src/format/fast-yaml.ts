// The fast reader: the parse of every stepfile and cases file whose YAML
// stays inside the subset real ones use, with the same data AND the same
// positions (line:column of every value and key) as `yaml`'s positioned
// parse, which stays the fallback for everything else (source.ts).
//
// Why by hand: no library gives positioned YAML 1.2 this fast. `yaml` keeps
// a concrete syntax tree, tokens and node objects per scalar, and its parse
// was about half of a user's first launch (28 stepfiles, 400 KB); js-yaml
// builds plain data faster but has no positions, so every warning to place
// meant parsing again with `yaml`. This reads the text once, building the
// plain data and a small table of offsets beside it.
//
// What it reads (see docs/architecture.md): block mappings and sequences
// (compact ones in sequence items too), plain scalars over one or more
// lines, single- and double-quoted scalars over one or more lines (JSON's
// escapes and YAML's, less an escaped line break), literal and folded block scalars with chomping and
// indentation indicators, flow collections over several lines (a JSON text
// is one), comments wherever YAML allows them, anchors on a value and
// aliases as a value (an alias gives the anchored value itself, as `yaml`'s
// toJS does, and is placed at its `*`, where `yaml`'s tree stops). Plain
// scalars are typed by `yaml`'s own YAML 1.2 core-schema resolvers. It
// declines (returns undefined, and source.ts parses with `yaml`) on
// anything else and on anything `yaml` would report: anchors on keys or
// on nothing, aliases as keys, an anchor named twice, an alias before its
// anchor, more than MOST_ALIASES aliases, an anchored value holding an
// alias of a value that holds one (with those two bounds `yaml`'s
// maxAliasCount cannot refuse the text), tags, merge keys,
// directives and document markers, explicit keys, tabs, CR, control
// characters, duplicate or null keys, keys over 1000 characters, data
// nesting deeper than MAX_DEPTH (aliased values counted where they stand), folded
// lines more indented than their block, and every shape it is unsure of.
// Declining is always safe; reading differently is not, so
// test/fuzz/yaml-parse.fuzz.test.ts holds data and positions to `yaml`'s on
// every stepfile and cases file in the repository and the shared
// conformance suite, on mutations of them and on generated documents.
import { isScalar, parseDocument } from "yaml";
import { depthOf, MAX_DEPTH } from "./nesting.js";
import type { PathSegment } from "./source.js";

/** `yaml`'s YAML 1.2 core-schema tags that type a plain scalar by a pattern, in its order of trial. */
const coreTags = (parseDocument("", { version: "1.2" }).schema.tags as ReadonlyArray<{ default?: unknown; test?: RegExp; resolve?: (source: string, onError: (message: string) => void, options: object) => unknown }>).filter(
  (tag) => tag.default === true && tag.test !== undefined && tag.resolve !== undefined,
);

/** Thrown wherever the text leaves the subset; made once, so declining costs no stack trace. */
const DECLINED = new Error("declined");
function decline(): never {
  throw DECLINED;
}

/** Characters `yaml` refuses or reads in ways this does not (tabs, CR, BOM, C0/C1 controls, Unicode line breaks). */
// eslint-disable-next-line no-control-regex -- these are the characters to find
const OUTSIDE = /[\u0000-\u0008\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;

/** YAML 1.2's one-character escapes in double-quoted scalars (spec 5.7), JSON's among them. */
const SINGLE_ESCAPES: Readonly<Record<string, string>> = { "0": "\0", a: "\x07", b: "\b", t: "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029" };
const HEX = /^[0-9a-fA-F]+$/;

/** The longest implicit key read here; `yaml` refuses one over 1024 characters in strict mode. */
const LONGEST_KEY = 1000;

/**
 * Aliases read in one text. `yaml` refuses an anchor A once uses(A) times
 * A's alias count passes 100 (source.ts's maxAliasCount), where the count is
 * 1 for a value with no alias inside and, for one with aliases of B inside,
 * the largest uses(B) times B's count. With at most 20 aliases and no alias
 * inside a value that holds aliases, that is at most 10 x 10.
 */
const MOST_ALIASES = 20;
/** Anchor names read here: `yaml` takes any run of characters but spaces and flow indicators; these are the ones stepfiles use. */
const ANCHOR_NAME = /[A-Za-z0-9_.-]+/y;

/**
 * Where a mapping's keys and values start (offsets into the text), beside
 * the data: `entries` holds each key (as read: a number, boolean or string),
 * its offset and its value's place, three slots an entry, in the text's
 * order. One array cut to size, not three grown by push: an array grown by
 * push keeps room for about 16 more, and kept beside every collection of 28
 * user stepfiles, the tables were 6.5 MB against the data's 2.4 (issue 27
 * item 7: what survives to the first answer is what the collector copies).
 */
class MapPlace {
  constructor(
    readonly at: number,
    readonly entries: readonly unknown[],
  ) {}
}
/** Where a sequence's items start, in order, cut to size as MapPlace's entries are. */
class SeqPlace {
  constructor(
    readonly at: number,
    readonly items: readonly Place[],
  ) {}
}
/** A scalar's place is its offset. */
type Place = number | MapPlace | SeqPlace;

const SPACE = 32;
const NEWLINE = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;

/** A plain scalar may not start with one of these (`-`, `?`, `:` only when a space or the end follows). */
function plainStartOk(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  switch (c) {
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 39: // '
    case 34: // "
    case 37: // %
    case 64: // @
    case 96: // `
    case 63: // ?
    case COLON:
      return false;
    case DASH: {
      // `-` starts a plain scalar when no space, line break or flow indicator follows it (`-5`, `--key`); `---` is left to `yaml`.
      const next = text.charCodeAt(p + 1);
      return !(Number.isNaN(next) || next === SPACE || next === NEWLINE || next === 44 || next === 91 || next === 93 || next === 123 || next === 125 || text.startsWith("---", p));
    }
    case 46: // . : `...` is a document end marker
      return !text.startsWith("...", p);
    default:
      return true;
  }
}

/** What a plain scalar's text means under the core schema; declines where `yaml` would report an error or a key it reads as null. */
function resolvePlain(source: string): unknown {
  const c = source.charCodeAt(0);
  // Only these can start a null, boolean or number: everything else is a string, without trying every pattern.
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70)) return source;
  for (const tag of coreTags) {
    if (!tag.test!.test(source)) continue;
    const value = tag.resolve!(source, decline, {});
    // Some resolvers return a node (booleans keep their spelling); its value is what the document holds.
    return isScalar(value) ? value.value : value;
  }
  return source;
}

class Reader {
  /** The offset read next. */
  i = 0;
  constructor(readonly text: string) {}

  /** Each anchor's value, its place and whether an alias is inside it; `aliases` counts every alias read so far, `anchoring` the anchored values being read. */
  readonly anchors = new Map<string, { data: unknown; place: Place; holdsAlias: boolean; depth?: number }>();
  aliases = 0;
  anchoring = 0;
  /**
   * The collections open around what is read now. Past MAX_DEPTH the reader
   * declines (source.ts then reports the nesting), so the data it gives
   * nests no deeper than depthOf allows and the recursion stays shallow.
   */
  depth = 0;

  /** Entering a collection: one level deeper, declining past MAX_DEPTH. */
  enter(): void {
    if (++this.depth > MAX_DEPTH) decline();
  }

  /** Leaving a mapping read whole: its data and its place, the table cut to size (see MapPlace). */
  mapRead(data: Record<string, unknown>, at: number, entries: unknown[]): { data: unknown; place: Place } {
    this.depth -= 1;
    return { data, place: new MapPlace(at, entries.slice()) };
  }

  /** Leaving a sequence read whole: the data and the table both cut to size (see MapPlace). */
  seqRead(data: unknown[], at: number, items: Place[]): { data: unknown; place: Place } {
    this.depth -= 1;
    return { data: data.slice(), place: new SeqPlace(at, items.slice()) };
  }

  /** An anchor or alias name at `p` (after its `&` or `*`), ending before a space, a line break or the text's end (or, in a flow collection, a `,` or closing bracket); declines on any other. */
  nodeName(p: number, flow: boolean): string {
    ANCHOR_NAME.lastIndex = p;
    const name = ANCHOR_NAME.exec(this.text)?.[0];
    if (name === undefined) return decline();
    const c = this.text.charCodeAt(p + name.length);
    if (!(c === SPACE || c === NEWLINE || p + name.length >= this.text.length || (flow && (c === 44 || c === 93 || c === 125)))) decline();
    this.i = p + name.length;
    return name;
  }

  /** The value an alias at `p` names (the very value, as `yaml`'s toJS gives it), placed at its `*`; leaves `i` after its name. */
  alias(p: number, flow: boolean): { data: unknown; place: Place } {
    const anchor = this.anchors.get(this.nodeName(p + 1, flow));
    if (anchor === undefined || ++this.aliases > MOST_ALIASES || (anchor.holdsAlias && this.anchoring > 0)) decline();
    // The anchored value nests again where the alias stands.
    if (this.depth + (anchor.depth ??= depthOf(anchor.data, 0)) > MAX_DEPTH) decline();
    return { data: anchor.data, place: p };
  }

  /** The value `read` reads, kept under the anchor `name`; declines on a name used before, inside the value too (`&b [&b x]`: which one a later `*b` means is left to `yaml`). */
  anchored(name: string, read: () => { data: unknown; place: Place }): { data: unknown; place: Place } {
    if (this.anchors.has(name)) decline();
    const before = this.aliases;
    this.anchoring += 1;
    const value = read();
    this.anchoring -= 1;
    if (this.anchors.has(name)) decline();
    this.anchors.set(name, { data: value.data, place: value.place, holdsAlias: this.aliases !== before });
    return value;
  }

  /** The offset of the next line's start, or the text's length. */
  lineEnd(p: number): number {
    const end = this.text.indexOf("\n", p);
    return end === -1 ? this.text.length : end;
  }

  /** The first offset at or after `p` that is not a space. */
  spaces(p: number): number {
    const text = this.text;
    while (text.charCodeAt(p) === SPACE) p++;
    return p;
  }

  /** Whether `p` is at the end of its line's content: the text's end, a line break, or a comment (`#` after a space). */
  atLineEnd(p: number): boolean {
    if (p >= this.text.length) return true;
    const c = this.text.charCodeAt(p);
    return c === NEWLINE || (c === HASH && this.text.charCodeAt(p - 1) === SPACE);
  }

  /**
   * From a line's start, past blank and comment-only lines: the offset of
   * the next content (its first non-space character), or -1 at the end.
   * Declines on document markers and directives.
   */
  nextContent(lineStart: number): number {
    const text = this.text;
    let p = lineStart;
    while (p < text.length) {
      const q = this.spaces(p);
      if (q >= text.length) return -1;
      const c = text.charCodeAt(q);
      if (c === NEWLINE) {
        p = q + 1;
        continue;
      }
      if (c === HASH) {
        p = this.lineEnd(q) + 1;
        continue;
      }
      if (q === p && (text.startsWith("---", q) || text.startsWith("...", q) || c === 37)) decline();
      return q;
    }
    return -1;
  }

  /** After a node's content on its line: spaces and a comment are all that may follow; the offset of the next line. */
  endOfLine(p: number): number {
    const q = this.spaces(p);
    if (q >= this.text.length) return q;
    const c = this.text.charCodeAt(q);
    if (c === NEWLINE) return q + 1;
    if (c === HASH && q > p) return this.lineEnd(q) + 1;
    return decline();
  }

  /** Where a comment (` #`) starts in [p, end), or `end`: a scan bounded by the line, never past it (a 20,000-key mapping would make it quadratic). */
  commentAt(p: number, end: number): number {
    const text = this.text;
    for (let q = p + 1; q < end; q++) if (text.charCodeAt(q) === HASH && text.charCodeAt(q - 1) === SPACE) return q - 1;
    return end;
  }

  /** The column (0-based) of an offset. */
  column(p: number): number {
    return p - (this.text.lastIndexOf("\n", p - 1) + 1);
  }

  isDash(p: number): boolean {
    if (this.text.charCodeAt(p) !== DASH) return false;
    const next = this.text.charCodeAt(p + 1);
    return next === SPACE || next === NEWLINE || p + 1 >= this.text.length;
  }

  /** The whole document: a block mapping or sequence, or a flow collection (as a JSON text is). */
  document(): { data: unknown; place: Place } {
    const text = this.text;
    const p = this.nextContent(0);
    if (p === -1 || this.column(p) !== 0) decline();
    const c = text.charCodeAt(p);
    let out: { data: unknown; place: Place };
    if (c === 123 || c === 91) {
      this.i = p;
      out = this.flowCollection(-1);
      this.i = this.endOfLine(this.i);
    } else if (this.isDash(p)) out = this.blockSeq(p, 0);
    else if (this.key(p)) out = this.blockMap(p, 0);
    else return decline();
    if (this.i < text.length && this.nextContent(this.i) !== -1) decline();
    return out;
  }

  // Set by key(): the key's data, its text as an object key, and the offset after its `:`.
  keyValue: unknown = undefined;
  keyName = "";
  keyAfter = 0;

  /** Whether an implicit key starts at `p` (a scalar on this line, then `:` and a space or the line's end); sets keyValue, keyName, keyAfter. */
  key(p: number): boolean {
    const text = this.text;
    const c = text.charCodeAt(p);
    let value: unknown;
    let end: number;
    if (c === 34 || c === 39) {
      const close = c === 39 ? this.singleQuotedEnd(p) : this.doubleQuotedEnd(p);
      if (close === -1) return false;
      end = this.spaces(close);
      if (text.charCodeAt(end) !== COLON) return false;
      this.i = p;
      value = c === 39 ? this.singleQuoted(-1) : this.doubleQuoted(-1);
    } else {
      if (!plainStartOk(text, p)) return false;
      const lineEnd = this.lineEnd(p);
      const limit = this.commentAt(p, lineEnd);
      // The first `:` on the line, before any comment, with a space, a line break or the end after it.
      end = p;
      for (;;) {
        while (end < limit && text.charCodeAt(end) !== COLON) end++;
        if (end >= limit) return false;
        const next = text.charCodeAt(end + 1);
        if (next === SPACE || next === NEWLINE || end + 1 >= text.length) break;
        end += 1;
      }
      let last = end;
      while (text.charCodeAt(last - 1) === SPACE) last--;
      value = resolvePlain(text.slice(p, last));
      if (value === null) decline();
    }
    const next = text.charCodeAt(end + 1);
    if (!(next === SPACE || next === NEWLINE || end + 1 >= text.length)) return false;
    if (end - p > LONGEST_KEY) decline();
    if (typeof value === "number" ? !Number.isFinite(value) : typeof value !== "string" && typeof value !== "boolean") decline();
    this.keyValue = value;
    this.keyName = String(value);
    // `<<` is a merge key to `yaml` (merge: true); `__proto__` would not be an own key of a plain object.
    if (this.keyName === "<<" || this.keyName === "__proto__") decline();
    this.keyAfter = end + 1;
    return true;
  }

  /** A block mapping whose first key starts at `p`, in column `col`. */
  blockMap(p: number, col: number): { data: unknown; place: Place } {
    this.enter();
    const data: Record<string, unknown> = {};
    const at = p;
    const entries: unknown[] = [];
    for (;;) {
      if (!this.key(p)) decline();
      const name = this.keyName;
      if (Object.hasOwn(data, name)) decline();
      const key = this.keyValue;
      const keyAt = p;
      const value = this.blockValue(this.keyAfter, col, true);
      data[name] = value.data;
      entries.push(key, keyAt, value.place);
      if (this.i >= this.text.length) break;
      const next = this.nextContent(this.i);
      if (next === -1) break;
      const indent = this.column(next);
      if (indent < col) break;
      if (indent > col || this.isDash(next)) decline();
      p = next;
    }
    return this.mapRead(data, at, entries);
  }

  /** A block sequence whose first `-` is at `p`, in column `col`. */
  blockSeq(p: number, col: number): { data: unknown; place: Place } {
    this.enter();
    const data: unknown[] = [];
    const at = p;
    const items: Place[] = [];
    for (;;) {
      const value = this.blockValue(p + 1, col, false);
      data.push(value.data);
      items.push(value.place);
      if (this.i >= this.text.length) break;
      const next = this.nextContent(this.i);
      if (next === -1) break;
      const indent = this.column(next);
      if (indent < col) break;
      if (indent > col) decline();
      // At the same column without a dash: the key of the mapping this sequence is a value of.
      if (!this.isDash(next)) break;
      p = next;
    }
    return this.seqRead(data, at, items);
  }

  /**
   * The value after a key's `:` or an item's `-` (at `after`), of a
   * collection in column `col`: on the same line, on the lines below
   * (indented more, or a sequence at the same column under a key), or null.
   * Leaves `i` at the start of the line after it.
   */
  blockValue(after: number, col: number, inMap: boolean): { data: unknown; place: Place } {
    const text = this.text;
    const q = this.spaces(after);
    const c = text.charCodeAt(q);
    if (c === 42) {
      const value = this.alias(q, false);
      this.i = this.endOfLine(this.i);
      return value;
    }
    if (c === 38) return this.anchoredBlockValue(q, col);
    if (this.atLineEnd(q)) {
      const lineAfter = q >= text.length ? text.length : this.lineEnd(q) + 1;
      const next = lineAfter >= text.length ? -1 : this.nextContent(lineAfter);
      if (next !== -1) {
        const indent = this.column(next);
        if (indent > col) return this.nodeAtLineStart(next, indent, col);
        if (inMap && indent === col && this.isDash(next)) return this.blockSeq(next, col);
      }
      this.i = lineAfter;
      return { data: null, place: q };
    }
    if (!inMap) {
      // Compact collections in a sequence item: `- - a`, `- key: value`.
      const c = this.column(q);
      if (this.isDash(q)) return this.blockSeq(q, c);
      if (this.key(q)) return this.blockMap(q, c);
    }
    return this.inlineValue(q, col);
  }

  /**
   * A value with an anchor (its `&` at `p`): a scalar or flow collection on
   * the same line, or a node on the lines below indented more than `col`.
   * Declines on an anchor before a key or a compact collection (`yaml` gives
   * it to the key) and on an anchor with no value.
   */
  anchoredBlockValue(p: number, col: number): { data: unknown; place: Place } {
    const name = this.nodeName(p + 1, false);
    const q = this.spaces(this.i);
    if (this.atLineEnd(q)) {
      const lineAfter = q >= this.text.length ? q : this.lineEnd(q) + 1;
      const next = lineAfter >= this.text.length ? -1 : this.nextContent(lineAfter);
      if (next === -1 || this.column(next) <= col) decline();
      return this.anchored(name, () => this.nodeAtLineStart(next, this.column(next), col));
    }
    const c = this.text.charCodeAt(q);
    if (c === 38 || c === 42 || this.isDash(q) || this.key(q)) decline();
    return this.anchored(name, () => this.inlineValue(q, col));
  }

  /** A node that starts a line (at `p`, in column `indent`), under a collection in column `col`. */
  nodeAtLineStart(p: number, indent: number, col: number): { data: unknown; place: Place } {
    if (this.isDash(p)) return this.blockSeq(p, indent);
    if (this.key(p)) return this.blockMap(p, indent);
    return this.inlineValue(p, col);
  }

  /** A scalar or flow collection at `p`, inside a block collection in column `col` (its lines below must be indented more). */
  inlineValue(p: number, col: number): { data: unknown; place: Place } {
    const text = this.text;
    const c = text.charCodeAt(p);
    this.i = p;
    let data: unknown;
    if (c === 124 || c === 62) {
      data = this.blockScalar(col);
      return { data, place: p };
    }
    if (c === 123 || c === 91) {
      const flow = this.flowCollection(col);
      this.i = this.endOfLine(this.i);
      return flow;
    }
    if (c === 39 || c === 34) data = c === 39 ? this.singleQuoted(col) : this.doubleQuoted(col);
    else {
      data = this.plainBlock(p, col);
      return { data, place: p };
    }
    this.i = this.endOfLine(this.i);
    return { data, place: p };
  }

  /** A plain scalar in block context, over as many lines as are indented more than `col`; leaves `i` at the line after it. */
  plainBlock(p: number, col: number): unknown {
    const text = this.text;
    if (!plainStartOk(text, p)) decline();
    let end = this.lineEnd(p);
    let value = this.plainLine(p, end);
    let multi = false;
    let breaks = 0;
    let next = end + 1;
    // A comment ends the scalar (what is indented after it, the collection refuses).
    while (!this.commented && end < text.length && next < text.length) {
      const q = this.spaces(next);
      const c = text.charCodeAt(q);
      if (c === NEWLINE) {
        breaks += 1;
        next = q + 1;
        continue;
      }
      if (q >= text.length || q - next <= col) break;
      if (c === HASH || !plainStartOk(text, q) || this.isDash(q)) decline();
      end = this.lineEnd(q);
      const line = this.plainLine(q, end);
      value += breaks === 0 ? ` ${line}` : "\n".repeat(breaks) + line;
      multi = true;
      breaks = 0;
      next = end + 1;
    }
    this.i = end >= text.length ? text.length : end + 1;
    const resolved = resolvePlain(value);
    // Over several lines a scalar is text here; anything else is left to `yaml`.
    if (multi && typeof resolved !== "string") decline();
    return resolved;
  }

  /** Whether the line plainLine read last ended in a comment. */
  commented = false;

  /** One line of a plain scalar, from `p` to `end`: its text less trailing spaces and comment; declines on a `: ` inside. */
  plainLine(p: number, end: number): string {
    const text = this.text;
    const hash = this.commentAt(p, end);
    this.commented = hash < end;
    let last = hash;
    while (text.charCodeAt(last - 1) === SPACE) last--;
    // `: ` inside would make it a key: on a value's line, an error `yaml` reports.
    for (let q = p; q < last; q++) if (text.charCodeAt(q) === COLON && (q + 1 === last || text.charCodeAt(q + 1) === SPACE)) decline();
    return text.slice(p, last);
  }

  /**
   * The folding of a quoted scalar's line break at `p` (its trailing spaces
   * are already dropped): one break is a space, n + 1 breaks are n newlines;
   * the next line must be indented more than `col`. Leaves `i` at the next line's content.
   */
  foldBreak(p: number, col: number): string {
    const text = this.text;
    let breaks = 0;
    let q = p;
    for (;;) {
      q += 1;
      const start = q;
      q = this.spaces(q);
      if (q >= text.length) decline();
      if (text.charCodeAt(q) === NEWLINE) {
        breaks += 1;
        continue;
      }
      if (q - start <= col) decline();
      if (q === start && (text.startsWith("---", q) || text.startsWith("...", q))) decline();
      break;
    }
    this.i = q;
    return breaks === 0 ? " " : "\n".repeat(breaks);
  }

  /** Where a single-quoted scalar at `p` closes on its line (the offset after its quote), or -1. */
  singleQuotedEnd(p: number): number {
    const text = this.text;
    const end = this.lineEnd(p);
    for (let q = p + 1; q < end; q++) {
      if (text.charCodeAt(q) !== 39) continue;
      if (text.charCodeAt(q + 1) !== 39) return q + 1;
      q += 1;
    }
    return -1;
  }

  /** Where a double-quoted scalar at `p` closes on its line (the offset after its quote), or -1. */
  doubleQuotedEnd(p: number): number {
    const text = this.text;
    const end = this.lineEnd(p);
    for (let q = p + 1; q < end; q++) {
      const c = text.charCodeAt(q);
      if (c === 92) q++;
      else if (c === 34) return q + 1;
    }
    return -1;
  }

  singleQuoted(col: number): string {
    return this.quoted(col, false);
  }

  doubleQuoted(col: number): string {
    return this.quoted(col, true);
  }

  /**
   * A single- or double-quoted scalar at `i` (in a double-quoted one, YAML's
   * escapes less an escaped line break), its lines after the first indented
   * more than `col`; leaves `i` after its closing quote.
   */
  quoted(col: number, double: boolean): string {
    const text = this.text;
    const quote = double ? 34 : 39;
    let q = this.i + 1;
    let out = "";
    let from = q;
    for (;;) {
      if (q >= text.length) decline();
      const c = text.charCodeAt(q);
      if (c === quote) {
        out += text.slice(from, q);
        // `''` is a quote inside a single-quoted scalar.
        if (!double && text.charCodeAt(q + 1) === 39) {
          out += "'";
          q += 2;
          from = q;
          continue;
        }
        this.i = q + 1;
        return out;
      }
      if (double && c === 92) {
        out += text.slice(from, q);
        const e = text[q + 1];
        const single = e === undefined ? undefined : SINGLE_ESCAPES[e];
        if (single !== undefined) out += single;
        else {
          // \xXX, \uXXXX, \UXXXXXXXX; an escaped line break (and anything else) is left to `yaml`.
          const digits = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
          const hex = text.slice(q + 2, q + 2 + digits);
          if (digits === 0 || !HEX.test(hex) || hex.length !== digits) decline();
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) decline();
          out += digits === 8 ? String.fromCodePoint(code) : String.fromCharCode(code);
          q += digits;
        }
        q += 2;
        from = q;
        continue;
      }
      if (c === NEWLINE) {
        // The line's trailing spaces go; the break folds.
        let last = q;
        while (last > from && text.charCodeAt(last - 1) === SPACE) last--;
        out += text.slice(from, last) + this.foldBreak(q, col);
        q = from = this.i;
        continue;
      }
      q++;
    }
  }

  /**
   * A literal or folded block scalar whose header is at `i`, in a
   * collection in column `col`: clip, strip or keep; indentation detected
   * from its first line or given by the header's digit (from `col`).
   * Leaves `i` at the line after its last.
   */
  blockScalar(col: number): string {
    const text = this.text;
    const folded = text.charCodeAt(this.i) === 62;
    let q = this.i + 1;
    let chomp: "clip" | "strip" | "keep" = "clip";
    let explicit = 0;
    for (let n = 0; n < 2; n++) {
      const c = text.charCodeAt(q);
      if (chomp === "clip" && (c === DASH || c === 43)) {
        chomp = c === DASH ? "strip" : "keep";
        q++;
      } else if (explicit === 0 && c >= 49 && c <= 57) {
        explicit = c - 48;
        q++;
      }
    }
    const headerEnd = this.spaces(q);
    if (headerEnd < text.length && text.charCodeAt(headerEnd) !== NEWLINE && !(text.charCodeAt(headerEnd) === HASH && headerEnd > q)) decline();
    if (headerEnd >= text.length) decline();
    let lineStart = this.lineEnd(headerEnd) + 1;
    // Find the indentation: the first line that is not all spaces; a leading all-space line may not be longer.
    let indent = explicit > 0 ? col + explicit : 0;
    if (indent === 0) {
      let longest = 0;
      for (let s = lineStart; s < text.length; ) {
        const e = this.spaces(s);
        if (e >= text.length) break;
        if (text.charCodeAt(e) === NEWLINE) {
          longest = Math.max(longest, e - s);
          s = e + 1;
          continue;
        }
        indent = e - s;
        break;
      }
      if (indent <= col || longest > indent) decline();
    }
    const lines: string[] = [];
    let lastBreak = false;
    while (lineStart < text.length) {
      const e = this.spaces(lineStart);
      const blank = e >= text.length || text.charCodeAt(e) === NEWLINE;
      if (blank) {
        // An all-space line longer than the indentation holds spaces of the text: not read here.
        if (e - lineStart > indent) decline();
        if (e >= text.length) break;
        lines.push("");
        lineStart = e + 1;
        continue;
      }
      if (e - lineStart < indent) break;
      const lineEnd = this.lineEnd(e);
      const content = text.slice(lineStart + indent, lineEnd);
      if (folded && content.charCodeAt(0) === SPACE) decline();
      lines.push(content);
      lastBreak = lineEnd < text.length;
      lineStart = lineEnd + 1;
    }
    let trailing = 0;
    while (lines.length > 0 && lines[lines.length - 1] === "") {
      lines.pop();
      trailing++;
    }
    // Empty block scalars and folded ones that start with an empty line are left to `yaml`.
    if (lines.length === 0 || (folded && lines[0] === "")) decline();
    // Trailing blank lines belong to the scalar (kept only by `+`); what follows starts at the line that ended it.
    this.i = Math.min(lineStart, text.length);
    let body: string;
    if (!folded) body = lines.join("\n");
    else {
      body = lines[0]!;
      let empty = 0;
      for (let n = 1; n < lines.length; n++) {
        const line = lines[n]!;
        if (line === "") {
          empty++;
          continue;
        }
        body += empty === 0 ? ` ${line}` : "\n".repeat(empty) + line;
        empty = 0;
      }
    }
    if (chomp === "strip") return body;
    if (!lastBreak) {
      if (trailing > 0) decline();
      return body;
    }
    return chomp === "clip" ? `${body}\n` : body + "\n".repeat(1 + trailing);
  }

  /** A flow collection at `i`; its lines after the first indented more than `col` (-1: the whole document). Leaves `i` after its closing bracket. */
  flowCollection(col: number): { data: unknown; place: Place } {
    this.enter();
    const text = this.text;
    const at = this.i;
    const isMap = text.charCodeAt(at) === 123;
    const close = isMap ? 125 : 93;
    const data: unknown = isMap ? {} : [];
    // A mapping's entries (key, offset, place) or a sequence's items' places.
    const table: unknown[] = [];
    const read = () => (isMap ? this.mapRead(data as Record<string, unknown>, at, table) : this.seqRead(data as unknown[], at, table as Place[]));
    let q = this.flowSpace(at + 1, col);
    if (text.charCodeAt(q) === close) {
      this.i = q + 1;
      return read();
    }
    for (;;) {
      this.i = q;
      const c = text.charCodeAt(q);
      if (isMap) {
        // A key: a quoted or plain scalar, then `:` on the same line.
        if (c === 123 || c === 91 || c === 44 || c === close) decline();
        const key = c === 34 || c === 39 ? (c === 34 ? this.doubleQuoted(col) : this.singleQuoted(col)) : this.plainFlow(q, col);
        const keyEnd = this.i;
        const colon = this.spaces(keyEnd);
        if (text.charCodeAt(colon) !== COLON) decline();
        // After a plain key the `:` needs a space or line break after it (else it is part of the key); a quoted (JSON-like) key needs none.
        if (c !== 34 && c !== 39 && !(text.charCodeAt(colon + 1) === SPACE || text.charCodeAt(colon + 1) === NEWLINE)) decline();
        if (typeof key === "number" ? !Number.isFinite(key) : typeof key !== "string" && typeof key !== "boolean") decline();
        const name = String(key);
        if (colon - q > LONGEST_KEY || name === "<<" || name === "__proto__" || Object.hasOwn(data as object, name)) decline();
        const valueAt = this.flowSpace(colon + 1, col);
        const vc = text.charCodeAt(valueAt);
        if (vc === 44 || vc === close) decline();
        this.i = valueAt;
        const value = this.flowNode(col);
        (data as Record<string, unknown>)[name] = value.data;
        table.push(key, q, value.place);
      } else {
        const value = this.flowNode(col);
        (data as unknown[]).push(value.data);
        table.push(value.place);
      }
      const after = this.i;
      // A comment pressed against a quoted scalar or a closing bracket is an error to `yaml`.
      if (text.charCodeAt(after) === HASH) decline();
      q = this.flowSpace(after, col);
      const n = text.charCodeAt(q);
      if (n === close) {
        this.i = q + 1;
        return read();
      }
      if (n !== 44) decline();
      // After a comma: the next entry, or the end of a trailing comma; an empty entry is an error to `yaml`.
      q = this.flowSpace(q + 1, col);
      const m = text.charCodeAt(q);
      if (m === close) {
        this.i = q + 1;
        return read();
      }
      if (m === 44) decline();
    }
  }

  /** A node inside a flow collection at `i`: a nested collection, a quoted or a plain scalar. */
  flowNode(col: number): { data: unknown; place: Place } {
    const text = this.text;
    const p = this.i;
    const c = text.charCodeAt(p);
    if (c === 123 || c === 91) return this.flowCollection(col);
    if (c === 42) {
      const value = this.alias(p, true);
      if (text.charCodeAt(this.spaces(this.i)) === COLON) decline();
      return value;
    }
    if (c === 38) {
      const name = this.nodeName(p + 1, true);
      const q = this.spaces(this.i);
      const next = text.charCodeAt(q);
      // Only a value on the same line after the name: `&a,` (an anchor on nothing) and the like are left to `yaml`.
      if (q === this.i || next === NEWLINE || next === 44 || next === 93 || next === 125 || next === 38 || next === 42 || next === HASH) decline();
      this.i = q;
      return this.anchored(name, () => this.flowNode(col));
    }
    const data = c === 34 ? this.doubleQuoted(col) : c === 39 ? this.singleQuoted(col) : this.plainFlow(p, col);
    // Nothing may follow a scalar on its line but spaces, a comma, a closing bracket, a line break or a comment; a `:` would make it a key.
    const after = this.spaces(this.i);
    const n = text.charCodeAt(after);
    if (n === COLON) decline();
    if ((c === 34 || c === 39) && after === this.i && !(n === 44 || n === 93 || n === 125 || n === NEWLINE || after >= text.length)) decline();
    return { data, place: p };
  }

  /** A plain scalar in a flow collection, over as many lines as it goes on (indented more than `col`); leaves `i` after its last character. */
  plainFlow(p: number, col: number): unknown {
    const text = this.text;
    if (!plainStartOk(text, p)) decline();
    let q = this.plainFlowLine(p);
    let last = this.trimmed(p, q);
    if (last === p) decline();
    let value = text.slice(p, last);
    let multi = false;
    // Past a line break: the same scalar goes on unless a flow indicator, a `:` or a comment comes first.
    while (text.charCodeAt(q) === NEWLINE) {
      let breaks = 0;
      let start = q + 1;
      let r = this.spaces(start);
      while (text.charCodeAt(r) === NEWLINE) {
        breaks += 1;
        start = r + 1;
        r = this.spaces(start);
      }
      const c = text.charCodeAt(r);
      if (r >= text.length || c === 44 || c === 93 || c === 125 || c === COLON || c === HASH) break;
      if (r - start <= col || !plainStartOk(text, r) || this.isDash(r) || (r === start && (text.startsWith("---", r) || text.startsWith("...", r)))) decline();
      q = this.plainFlowLine(r);
      last = this.trimmed(r, q);
      value += (breaks === 0 ? " " : "\n".repeat(breaks)) + text.slice(r, last);
      multi = true;
    }
    this.i = last;
    const resolved = resolvePlain(value);
    if (multi && typeof resolved !== "string") decline();
    return resolved;
  }

  /** Where a plain scalar's line in a flow collection ends: a flow indicator, a line break, a comment, or a `:` before a space, line break or flow indicator. */
  plainFlowLine(p: number): number {
    const text = this.text;
    let q = p;
    for (; q < text.length; q++) {
      const c = text.charCodeAt(q);
      if (c === 44 || c === 91 || c === 93 || c === 123 || c === 125 || c === NEWLINE) break;
      if (c === HASH && text.charCodeAt(q - 1) === SPACE) break;
      if (c === COLON) {
        const n = text.charCodeAt(q + 1);
        if (n === SPACE || n === NEWLINE || n === 44 || n === 91 || n === 93 || n === 123 || n === 125 || q + 1 >= text.length) break;
      }
    }
    return q;
  }

  /** The offset after the last non-space character in [p, q). */
  trimmed(p: number, q: number): number {
    while (q > p && this.text.charCodeAt(q - 1) === SPACE) q--;
    return q;
  }

  /**
   * Past spaces, line breaks and comments inside a flow collection; each
   * new line's content must be indented more than `col`. `peek` only looks.
   */
  flowSpace(p: number, col: number, peek = false): number {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c === SPACE) p++;
      else if (c === NEWLINE) {
        const start = p + 1;
        p = this.spaces(start);
        const d = text.charCodeAt(p);
        if (peek || d === NEWLINE || d === HASH || p >= text.length) continue;
        // Inside a block collection in column `col`, a flow collection's lines are indented more, its closing bracket at least as much (as `yaml` requires).
        if (p - start < col || (p - start === col && d !== 93 && d !== 125) || (p === start && (text.startsWith("---", p) || text.startsWith("...", p)))) decline();
      } else if (c === HASH && (text.charCodeAt(p - 1) === SPACE || text.charCodeAt(p - 1) === NEWLINE)) p = this.lineEnd(p);
      else if (p >= text.length) return decline();
      else return p;
    }
  }
}

/** The document's data and a way to place a path, or undefined where only `yaml` can say what the text holds. */
export function fastParse(text: string): { data: unknown; locate: (path: readonly PathSegment[], atKey?: boolean) => { line: number; column: number } | undefined } | undefined {
  if (OUTSIDE.test(text)) return undefined;
  let read: { data: unknown; place: Place };
  try {
    read = new Reader(text).document();
  } catch (error) {
    // Declined, or nesting too deep for the stack: `yaml` says what the text holds.
    if (error === DECLINED || error instanceof RangeError) return undefined;
    throw error;
  }
  let lineStarts: number[] | undefined;
  return {
    data: read.data,
    locate: (path, atKey) => {
      const at = placeOf(read.place, path, atKey);
      if (at === undefined) return undefined;
      lineStarts ??= starts(text);
      return position(lineStarts, at);
    },
  };
}

/** As source.ts's `locate` walks `yaml`'s tree: as far down the path as it goes; a key's own place when asked and reached. */
function placeOf(root: Place, path: readonly PathSegment[], atKey = false): number | undefined {
  let node: Place = root;
  let keyAt: number | undefined;
  let depth = 0;
  for (const segment of path) {
    if (node instanceof MapPlace) {
      // The last entry with that key, compared as lastIndexOf compares (===).
      const entries = node.entries;
      let index = entries.length - 3;
      while (index >= 0 && entries[index] !== segment) index -= 3;
      if (index < 0) break;
      keyAt = entries[index + 1] as number;
      node = entries[index + 2] as Place;
      depth += 1;
    } else if (node instanceof SeqPlace && typeof segment === "number") {
      const item = node.items[segment];
      if (item === undefined) break;
      node = item;
      keyAt = undefined;
      depth += 1;
    } else break;
  }
  if (atKey && depth === path.length && keyAt !== undefined) return keyAt;
  return typeof node === "number" ? node : node.at;
}

function starts(text: string): number[] {
  const out = [0];
  for (let p = text.indexOf("\n"); p !== -1; p = text.indexOf("\n", p + 1)) out.push(p + 1);
  return out;
}

/** 1-based line and column of an offset, as `yaml`'s LineCounter gives them. */
function position(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low]! + 1 };
}
