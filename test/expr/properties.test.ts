// Laws the collection, length and time operators must keep for any input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/expr/index.js";
import { jsonEqual, jsonKey } from "../../src/expr/json.js";

const run = (rule: unknown, data: Record<string, unknown>) => compile(rule)(data);
const json = fc.jsonValue({ maxDepth: 3 });
const list = fc.array(fc.oneof(fc.constantFrom("a", "b", 1, null, { k: 1, j: [2] }, { j: [2], k: 1 }), json), { maxLength: 12 });

/** The same object with its keys in reverse insertion order, at every depth. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reorder(v)]));
  }
  return value;
}

describe("JSON equality", () => {
  it("ignores key order and agrees with structural equality", () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(jsonEqual(a, reorder(a))).toBe(true);
        expect(jsonEqual(a, b)).toBe(JSON.stringify(sortDeep(a)) === JSON.stringify(sortDeep(b)));
      }),
    );
  });

  it("tells apart values that differ only in type", () => {
    expect(jsonKey(1)).not.toBe(jsonKey("1"));
    expect(jsonKey([1])).not.toBe(jsonKey({ 0: 1 }));
    expect(jsonKey(null)).not.toBe(jsonKey("null"));
  });
});

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]));
  }
  return Object.is(value, -0) ? 0 : value;
}

describe("unique, difference and subset", () => {
  const ops = {
    unique: (a: unknown[]) => run({ unique: { var: "a" } }, { a }) as unknown[],
    difference: (a: unknown[], b: unknown[]) => run({ difference: [{ var: "a" }, { var: "b" }] }, { a, b }) as unknown[],
    subset: (a: unknown[], b: unknown[]) => run({ subset: [{ var: "a" }, { var: "b" }] }, { a, b }) as boolean,
  };

  it("subset(a, b) exactly when difference(a, b) is empty", () => {
    fc.assert(fc.property(list, list, (a, b) => ops.subset(a, b) === (ops.difference(a, b).length === 0)));
  });

  it("a is a subset of a merged with anything, and of its own reordering", () => {
    fc.assert(fc.property(list, list, (a, b) => ops.subset(a, [...b, ...a.map(reorder)]) && ops.subset(a, [...a].reverse())));
  });

  it("unique is idempotent, keeps first-seen order and loses no distinct element", () => {
    fc.assert(
      fc.property(list, (a) => {
        const once = ops.unique(a);
        expect(ops.unique(once)).toEqual(once);
        expect(ops.subset(a, once) && ops.subset(once, a)).toBe(true);
        const firstSeen = a.filter((item, i) => a.findIndex((other) => jsonEqual(other, item)) === i);
        expect(once).toEqual(firstSeen);
      }),
    );
  });

  it("difference keeps order and only elements missing from b", () => {
    fc.assert(
      fc.property(list, list, (a, b) => {
        const diff = ops.difference(a, b);
        expect(diff).toEqual(a.filter((item) => !b.some((other) => jsonEqual(item, other))));
      }),
    );
  });
});

describe("length", () => {
  it("counts code points as Array.from does", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => run({ length: { var: "t" } }, { t: text }) === Array.from(text).length),
    );
  });
});

describe("time_add and time_diff", () => {
  // 1970-2100, which crosses every month end and the leap days of 1972-2096.
  const instant = fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) / 1000 }).map((s) => new Date(s * 1000).toISOString().replace(".000Z", "Z"));
  const shift = fc.integer({ min: -400 * 86400, max: 400 * 86400 });
  const add = (t: string, s: number) => run({ time_add: [{ var: "t" }, { var: "s" }] }, { t, s });
  const diff = (a: unknown, b: unknown) => run({ time_diff: [{ var: "a" }, { var: "b" }] }, { a, b });

  it("diff(add(t, s), t) = s and add(add(t, s), -s) = t", () => {
    fc.assert(
      fc.property(instant, shift, (t, s) => {
        const moved = add(t, s) as string;
        expect(moved).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(diff(moved, t)).toBe(s);
        expect(add(moved, -s)).toBe(t);
      }),
    );
  });

  it("a day after Feb 28 is Feb 29 only in leap years", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9998 }), (year) => {
        const y = String(year).padStart(4, "0");
        const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
        expect(add(`${y}-02-28T00:00:00Z`, 86400)).toBe(leap ? `${y}-02-29T00:00:00Z` : `${y}-03-01T00:00:00Z`);
        expect(add(`${y}-02-29T00:00:00Z`, 0)).toBe(leap ? `${y}-02-29T00:00:00Z` : null);
      }),
    );
  });
});
