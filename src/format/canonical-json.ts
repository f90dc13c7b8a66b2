// RFC 8785 (JCS) canonical JSON of a JSON value: object members sorted by
// their names' UTF-16 code units (section 3.2.3), numbers and strings as
// ECMAScript's JSON.stringify writes them (3.2.2.2, 3.2.2.3: the same
// serialisation the RFC specifies), no whitespace.
//
// Why by hand: the `canonicalize` package 4.0.0 (design.md's choice), which
// this replaced and which the tests keep as the oracle
// (test/format/canonical-json.test.ts), looks for a lone surrogate in every
// string with a loop of its own; in a cold process that loop was most of
// hashing a stepfile (the 28 catalog copies: 48 ms against 25 here), which a
// later launch does for every served file and a run for every ledger record.
// String.prototype.isWellFormed asks the engine the same question; the
// package's 5.x asks it too, but declares Node 22 or later, and this package
// runs on 20.19.

/** The canonical JSON text of `value`; throws on what JSON (or RFC 8785) has no spelling for: NaN, an infinity, a lone surrogate, a cycle, a BigInt. */
export function canonicalJsonText(value: unknown): string | undefined {
  return write(value, new Set());
}

function write(value: unknown, open: Set<object>): string | undefined {
  if (value === null || typeof value !== "object") return primitive(value);
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") return within(value, open, () => write((json as () => unknown).call(value), open));
  return within(value, open, () => (Array.isArray(value) ? array(value, open) : members(value as Record<string, unknown>, open)));
}

function primitive(value: unknown): string | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(Number.isNaN(value) ? "NaN is not allowed" : "Infinity is not allowed");
  if (typeof value === "string" && !isWellFormed(value)) throw new Error("Lone surrogate is not allowed");
  // undefined, a function or a symbol: no JSON text (a member holding one is left out, an item is null).
  return JSON.stringify(value) as string | undefined;
}

function array(items: readonly unknown[], open: Set<object>): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    const item = items[i];
    out += item === undefined || typeof item === "symbol" || typeof item === "function" ? "null" : (write(item, open) ?? "null");
  }
  return `${out}]`;
}

function members(object: Record<string, unknown>, open: Set<object>): string {
  let out = "{";
  let first = true;
  // Array.prototype.sort without a comparator orders strings by UTF-16 code units, as RFC 8785 section 3.2.3 asks.
  for (const name of Object.keys(object).sort()) {
    const member = object[name];
    if (member === undefined || typeof member === "symbol" || typeof member === "function") continue;
    const text = write(member, open);
    if (text === undefined) continue;
    out += `${first ? "" : ","}${primitive(name)!}:${text}`;
    first = false;
  }
  return `${out}}`;
}

function within(value: object, open: Set<object>, body: () => string | undefined): string | undefined {
  if (open.has(value)) throw new Error("Circular reference detected");
  open.add(value);
  try {
    return body();
  } finally {
    open.delete(value);
  }
}

/** String.prototype.isWellFormed (ES2024, in every Node this package runs on; the project's TypeScript lib is ES2023): whether a string holds no lone surrogate. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}
