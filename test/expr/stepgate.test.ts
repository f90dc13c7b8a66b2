// Stepgate's operators (spec section 6), with the cases the public
// conformance suite exercises.
import { describe, expect, it } from "vitest";
import { compile, ExpressionError, type Data } from "../../src/expr/index.js";

const run = (rule: unknown, data: Data = {}) => compile(rule)(data);

describe("results", () => {
  const calls = [
    { tool: "listItems", arguments: { shelf: "A" }, result: { items: [{ id: "K-1" }, { id: "K-2" }] }, is_error: false },
    { tool: "listItems", arguments: { shelf: "B" }, result: { items: [{ id: "K-9" }] }, is_error: true },
    { tool: "other", arguments: {}, result: { items: [{ id: "X" }] } },
    { tool: "listItems", arguments: { shelf: "C" }, result: { count: 0 } },
  ];

  it("reads values at a path of non-error calls to the operation, flattened one level", () => {
    expect(run({ results: ["listItems", "items"] }, { calls })).toEqual([{ id: "K-1" }, { id: "K-2" }]);
  });

  it("reads whole results without a path", () => {
    expect(run({ results: ["listItems"] }, { calls })).toEqual([calls[0]!.result, calls[3]!.result]);
    expect(run({ length: { results: ["listItems"] } }, { calls: calls.slice(0, 2) })).toBe(1);
  });

  it("reads from the top of the data inside map, filter and reduce", () => {
    const data = { calls, output: { ids: ["K-1", "K-9"] } };
    const known = { map: [{ results: ["listItems", "items"] }, { var: "id" }] };
    expect(run({ filter: [{ var: "output.ids" }, { in: [{ var: "" }, known] }] }, data)).toEqual(["K-1"]);
    expect(run({ map: [[1], { length: { results: ["listItems", "items.0"] } }] }, data)).toEqual([1]);
    expect(run({ reduce: [[1, 2], { length: { results: ["listItems", "items"] } }, 0] }, data)).toBe(2);
  });

  it("is empty without calls and refuses a computed operation name", () => {
    expect(run({ results: ["listItems"] }, {})).toEqual([]);
    expect(() => compile({ results: [{ var: "x" }] })).toThrowError(ExpressionError);
  });
});

describe("object and assign", () => {
  it("object builds an object with evaluated values, and inside map", () => {
    const rule = { map: [{ var: "items" }, { object: [["name", { var: "id" }], ["stock", { "+": [{ var: "count" }, 0] }]] }] };
    expect(run(rule, { items: [{ id: "K-1", count: 4 }, { id: "K-2", count: 0 }] })).toEqual([
      { name: "K-1", stock: 4 },
      { name: "K-2", stock: 0 },
    ]);
  });

  it("object gives null when a key is not a string (object-bad-key)", () => {
    const rule = { "!=": [{ object: [[{ var: "label" }, 1]] }, null] };
    expect(run(rule, { label: 5 })).toBe(false);
    expect(run(rule, { label: "stock" })).toBe(true);
    expect(run({ object: [["a"]] })).toBeNull();
  });

  it("object and assign keep __proto__ as data", () => {
    const built = run({ object: [["__proto__", { object: [["polluted", true]] }]] }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(Object.hasOwn(built, "__proto__")).toBe(true);
    const merged = run({ assign: [{ var: "x" }] }, { x: JSON.parse('{"__proto__": {"polluted": true}}') }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("assign overrides earlier keys with later ones and copies", () => {
    const data = { item: { id: "K-1", tag: "old" } };
    const result = run({ assign: [{ var: "item" }, { object: [["tag", "new"], ["status", "in_stock"]] }] }, data);
    expect(result).toEqual({ id: "K-1", tag: "new", status: "in_stock" });
    expect(data.item.tag).toBe("old");
    expect(run({ assign: [] })).toEqual({});
  });

  it("assign gives null when an argument is not an object (assign-bad-argument)", () => {
    expect(run({ assign: [{ var: "x" }, { object: [["ok", true]] }] }, { x: "not-an-object" })).toBeNull();
    expect(run({ assign: [[1], {}] })).toBeNull();
    expect(run({ assign: [null] })).toBeNull();
  });
});

describe("collections", () => {
  it("length counts elements and code points", () => {
    expect(run({ length: [[1, 2, 3]] })).toBe(3);
    expect(run({ length: "héllo" })).toBe(5);
    expect(run({ length: "👍🏽!" })).toBe(3);
    expect(run({ length: 5 })).toBeNull();
  });

  it("unique keeps first-seen order by JSON equality, key order ignored", () => {
    expect(run({ unique: [["S-01", "S-09", "S-01"]] })).toEqual(["S-01", "S-09"]);
    expect(run({ unique: { var: "x" } }, { x: [{ a: 1, b: 2 }, { b: 2, a: 1 }, [1], [1], 1, "1"] })).toEqual([{ a: 1, b: 2 }, [1], 1, "1"]);
    expect(run({ unique: "abc" })).toBeNull();
  });

  it("subset and difference (operators case)", () => {
    const data = { cited: ["S-01", "S-09", "S-01"], sources: ["S-01", "S-02"] };
    expect(run({ subset: [{ var: "cited" }, { var: "sources" }] }, data)).toBe(false);
    expect(run({ difference: [{ var: "cited" }, { var: "sources" }] }, data)).toEqual(["S-09"]);
    expect(run({ subset: [["S-01", "S-02"], { var: "sources" }] }, data)).toBe(true);
    expect(run({ subset: [[], []] })).toBe(true);
    expect(run({ difference: [{ var: "a" }, { var: "b" }] }, { a: [{ a: 1, b: [2] }, 3], b: [{ b: [2], a: 1 }] })).toEqual([3]);
    expect(run({ subset: ["a", ["a"]] })).toBeNull();
    expect(run({ difference: [["a"], null] })).toBeNull();
  });

  it("keys, lower, flatten", () => {
    expect(run({ keys: { var: "o" } }, { o: { b: 1, a: 2 } })).toEqual(["b", "a"]);
    expect(run({ keys: [[1]] })).toBeNull();
    expect(run({ keys: "s" })).toBeNull();
    expect(run({ lower: "ÀBC" })).toBe("àbc");
    expect(run({ lower: 1 })).toBeNull();
    expect(run({ flatten: [[[1, [2]], 3, []]] })).toEqual([1, [2], 3]);
    expect(run({ flatten: "x" })).toBeNull();
  });

  it("get reads literally, own members only", () => {
    const data = { o: { "a.b": 1, a: { b: 2 } }, xs: ["one", "two"] };
    expect(run({ get: [{ var: "o" }, "a.b"] }, data)).toBe(1);
    expect(run({ get: [{ var: "xs" }, 1] }, data)).toBe("two");
    expect(run({ get: [{ var: "xs" }, "1"] }, data)).toBe("two");
    expect(run({ get: [{ var: "xs" }, 5] }, data)).toBeNull();
    expect(run({ get: [{ var: "xs" }, "length"] }, data)).toBeNull();
    expect(run({ get: [{ var: "o" }, "constructor"] }, data)).toBeNull();
    expect(run({ get: [{ var: "o" }, "__proto__"] }, data)).toBeNull();
    expect(run({ get: ["text", 0] }, data)).toBeNull();
  });

  it("join pairs each left item with the first matching right item", () => {
    const data = {
      rows: [{ id: "K-1", stock: 4 }, { id: "K-2", stock: 3 }, { id: "K-3", stock: 1 }, { stock: 0 }],
      catalogue: [{ id: "K-1", stock: 4 }, { id: "K-2", stock: 0 }, { id: "K-2", stock: 9 }, { stock: 7 }],
    };
    expect(run({ join: [{ var: "rows" }, { var: "catalogue" }, "id", "id"] }, data)).toEqual([
      { left: { id: "K-1", stock: 4 }, right: { id: "K-1", stock: 4 } },
      { left: { id: "K-2", stock: 3 }, right: { id: "K-2", stock: 0 } },
      { left: { id: "K-3", stock: 1 }, right: null },
      { left: { stock: 0 }, right: null },
    ]);
    const broken = { none: [{ join: [{ var: "rows" }, { var: "catalogue" }, "id", "id"] }, { "!=": [{ var: "left.stock" }, { var: "right.stock" }] }] };
    expect(run(broken, { rows: data.rows.slice(0, 1), catalogue: data.catalogue })).toBe(true);
    expect(run(broken, data)).toBe(false);
    expect(run({ join: [{ var: "l" }, { var: "r" }, "k", "k"] }, { l: [{ k: { a: 1, b: 2 } }], r: [{ k: { b: 2, a: 1 } }] })).toEqual([{ left: { k: { a: 1, b: 2 } }, right: { k: { b: 2, a: 1 } } }]);
    expect(run({ join: ["x", [], "id", "id"] })).toBeNull();
  });
});

describe("strings", () => {
  it("host gives the lower-cased host with port of absolute URLs", () => {
    expect(run({ host: "HTTPS://API.Example.com/v1?q=1" })).toBe("api.example.com");
    expect(run({ host: "http://Example.com:8080/" })).toBe("example.com:8080");
    expect(run({ host: "http://[::1]:3000/x" })).toBe("[::1]:3000");
    expect(run({ host: "/relative/path" })).toBeNull();
    expect(run({ host: "example.com" })).toBeNull();
    expect(run({ host: "mailto:someone@example.com" })).toBeNull();
    expect(run({ host: 42 })).toBeNull();
  });

  it("match_all gives group 1 of every match, or whole matches", () => {
    expect(run({ match_all: ["see S-01, S-22 and S-3", "S-(\\d+)"] })).toEqual(["01", "22", "3"]);
    expect(run({ match_all: ["see S-01, S-22", "S-\\d+"] })).toEqual(["S-01", "S-22"]);
    expect(run({ match_all: ["b ab", "(a)?b"] })).toEqual([null, "a"]);
    expect(run({ match_all: ["abc", "(?<=a)b"] })).toEqual(["b"]);
    expect(run({ match_all: [1, "x"] })).toBeNull();
  });

  it("match_all skips an empty match right after the previous match, as RE2 does", () => {
    expect(run({ match_all: ["baaa", "a*"] })).toEqual(["", "aaa"]);
    expect(run({ match_all: ["abc", ""] })).toEqual(["", "", "", ""]);
  });

  it("match_all refuses a literal pattern RE2 rejects at compile time, and gives null for a computed one", () => {
    expect(() => compile({ match_all: ["x", "(?=x)"] })).toThrowError(/does not compile under RE2/);
    expect(() => compile({ match_all: ["aa", "(a)\\1"] })).toThrowError(ExpressionError);
    expect(run({ match_all: ["x", { var: "p" }] }, { p: "(?=x)" })).toBeNull();
    expect(run({ match_all: ["x1y2", { var: "p" }] }, { p: "\\d" })).toEqual(["1", "2"]);
  });

  it("match_all stays linear on a catastrophic pattern", () => {
    const text = `${"a".repeat(5000)}b`;
    const started = performance.now();
    expect(run({ match_all: [text, "^(a+)+$"] })).toEqual([]);
    // A backtracking engine takes far longer than this on 5,000 characters (it would
    // never finish); RE2 takes milliseconds, and the bound allows a loaded machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe("sort_by (sort-by case)", () => {
  const items = [
    { id: "one", score: 30, name: "beta", tag: "zebra" },
    { id: "two", score: 10, name: "alpha", tag: null },
    { id: "three", score: 20, name: "Gamma", tag: "apple" },
    { id: "four", score: 10, name: "delta", tag: null },
  ];
  const order = (path: string, direction?: string) =>
    run({ map: [{ sort_by: direction === undefined ? [{ var: "items" }, path] : [{ var: "items" }, path, direction] }, { var: "id" }] }, { items });

  it.each([
    ["score", "asc", ["two", "four", "three", "one"]],
    ["score", "desc", ["one", "three", "two", "four"]],
    ["name", "asc", ["three", "two", "one", "four"]],
    ["name", "desc", ["four", "one", "two", "three"]],
    ["tag", "asc", ["three", "one", "two", "four"]],
    ["tag", "desc", ["one", "three", "two", "four"]],
  ])("by %s %s", (path, direction, expected) => {
    expect(order(path, direction)).toEqual(expected);
  });

  it("defaults to asc, compares strings by code point, refuses other directions", () => {
    expect(order("score")).toEqual(["two", "four", "three", "one"]);
    const strings = [{ s: "\u{1F600}" }, { s: "\uFF5E" }];
    // UTF-16 units would put the emoji (0xD83D...) first; code points put U+FF5E first.
    expect(run({ sort_by: [{ var: "x" }, "s", "asc"] }, { x: strings })).toEqual([strings[1], strings[0]]);
    expect(run({ sort_by: [{ var: "items" }, "score", "up"] }, { items })).toBeNull();
    expect(run({ sort_by: ["x", "s"] })).toBeNull();
  });

  it("does not change its input", () => {
    const data = { items: items.slice() };
    run({ sort_by: [{ var: "items" }, "score", "asc"] }, data);
    expect(data.items).toEqual(items);
  });
});

describe("time_add and time_diff (time-operators case)", () => {
  it.each([
    ["2026-01-31T23:59:59Z", 1, "2026-02-01T00:00:00Z"],
    ["2026-12-31T23:59:59Z", 1, "2027-01-01T00:00:00Z"],
    ["2028-02-28T12:00:00Z", 86400, "2028-02-29T12:00:00Z"],
    ["2026-02-28T12:00:00Z", 86400, "2026-03-01T12:00:00Z"],
    ["2026-03-01T00:00:00Z", -1, "2026-02-28T23:59:59Z"],
    ["2026-01-01T01:00:00+02:00", 0, "2025-12-31T23:00:00Z"],
    ["2026-01-01T00:00:00.250Z", 1, "2026-01-01T00:00:01.250Z"],
    ["2026-01-01T00:00:00.1234567Z", 0, "2026-01-01T00:00:00.123Z"],
    ["2026-01-01T00:00:00Z", 0.5, "2026-01-01T00:00:00.500Z"],
    ["2026-02-29T00:00:00Z", 10, null],
    ["2026-13-01T00:00:00Z", 10, null],
    ["2026-01-01T24:00:00Z", 10, null],
    ["2026-01-01", 10, null],
    ["2026-01-01T00:00:00", 10, null],
    ["2026-01-01T00:00:00Z", "10", null],
    ["9999-12-31T23:59:59Z", 1, null],
  ])("time_add(%s, %s)", (timestamp, seconds, expected) => {
    expect(run({ time_add: [timestamp, seconds] })).toBe(expected);
  });

  it.each([
    ["2026-02-01T00:00:00Z", "2026-01-31T23:59:59Z", 1],
    ["2027-01-01T00:00:00Z", "2026-12-31T23:59:59Z", 1],
    ["2028-02-29T12:00:00Z", "2028-02-28T12:00:00Z", 86400],
    ["2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z", -1],
    ["2026-01-01T02:00:00+02:00", "2026-01-01T00:00:00Z", 0],
    ["2026-02-29T00:00:00Z", "2026-02-28T00:00:00Z", null],
    ["2026-01-01T00:00:00Z", 5, null],
    ["2026-01-01T00:00:00.0001Z", "2026-01-01T00:00:00Z", 0.0001],
    ["2026-01-01T00:00:00.5Z", "2026-01-01T00:00:01.25Z", -0.75],
  ])("time_diff(%s, %s)", (later, earlier, expected) => {
    expect(run({ time_diff: [later, earlier] })).toBe(expected);
  });
});
