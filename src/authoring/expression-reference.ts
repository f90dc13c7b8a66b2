// The expression reference: every operator with its signature, its result, a
// one-line example and what it adds to a failing gate's diagnosis, plus how
// `var` scopes, what `calls` holds and how a diagnosis is assembled. It is
// the one source of both stepgate_guide's reference and the generated block
// in docs/stepfile.md (scripts/write-expression-reference.ts), so the two
// cannot drift; tests check every example evaluates to what it says and that
// every registered operator is here.

export interface OperatorReference {
  name: string;
  /** The arguments, in order. */
  signature: string;
  result: string;
  /** A one-line example: the expression, the data it reads (if any), and its value. */
  example: { expression: unknown; data?: Record<string, unknown>; gives: unknown };
  /** What this operator adds as a predicate's top-level shape with no explain. */
  diagnosis: string;
}

const NOTHING = "nothing (give the gate an explain)";

export const OPERATOR_REFERENCE: readonly OperatorReference[] = [
  { name: "var", signature: "path, default?", result: "the value at a dotted path (own properties only; list indexes are numbers: items.0.id) of the current data, or the default (null) when absent; \"\" is the whole data", example: { expression: { var: "output.items.0.id" }, data: { output: { items: [{ id: "A-1" }] } }, gives: "A-1" }, diagnosis: NOTHING },
  { name: "missing", signature: "path, path, ... (or one list of paths)", result: "the paths that are absent (null and \"\" count as absent)", example: { expression: { missing: ["output.id", "output.total"] }, data: { output: { id: 1 } }, gives: ["output.total"] }, diagnosis: NOTHING },
  { name: "missing_some", signature: "need, [paths]", result: "[] when at least `need` of the paths are present, else the absent ones", example: { expression: { missing_some: [1, ["output.email", "output.phone"]] }, data: { output: { phone: "1" } }, gives: [] }, diagnosis: NOTHING },
  { name: "if", signature: "condition, then, [condition, then, ...], else?", result: "the value after the first truthy condition, else the last argument (null without one)", example: { expression: { if: [{ ">": [3, 2] }, "big", "small"] }, gives: "big" }, diagnosis: NOTHING },
  { name: "==", signature: "a, b", result: "loose equality (JavaScript ==): 1 == \"1\" is true; lists and objects are equal only to themselves", example: { expression: { "==": [1, "1"] }, gives: true }, diagnosis: "expected <b>, got <a>, then what a was when it is a var path or the length of one: (output.count)" },
  { name: "===", signature: "a, b", result: "strict equality; lists and objects are never === each other (compare them with subset or difference)", example: { expression: { "===": [1, "1"] }, gives: false }, diagnosis: "as ==" },
  { name: "!=", signature: "a, b", result: "loose inequality", example: { expression: { "!=": ["a", "b"] }, gives: true }, diagnosis: NOTHING },
  { name: "!==", signature: "a, b", result: "strict inequality", example: { expression: { "!==": [1, "1"] }, gives: true }, diagnosis: NOTHING },
  { name: "!", signature: "value", result: "true when the value is falsy (false, null, 0, \"\", [])", example: { expression: { "!": [[]] }, gives: true }, diagnosis: NOTHING },
  { name: "!!", signature: "value", result: "true when the value is truthy ({} is truthy, [] is not)", example: { expression: { "!!": [["x"]] }, gives: true }, diagnosis: NOTHING },
  { name: "or", signature: "value, ...", result: "the first truthy value, else the last value", example: { expression: { or: [false, 0, "x"] }, gives: "x" }, diagnosis: NOTHING },
  { name: "and", signature: "value, ...", result: "the first falsy value, else the last value", example: { expression: { and: [true, "x"] }, gives: "x" }, diagnosis: "what each failing part of a self-explaining shape (subset, ==, ===, none over join, and) adds, joined with \" | \"" },
  { name: ">", signature: "a, b", result: "a > b (numbers; strings compare as JavaScript does)", example: { expression: { ">": [3, 2] }, gives: true }, diagnosis: NOTHING },
  { name: ">=", signature: "a, b", result: "a >= b", example: { expression: { ">=": [2, 2] }, gives: true }, diagnosis: NOTHING },
  { name: "<", signature: "a, b, c?", result: "a < b; with three arguments a < b < c (between, exclusive)", example: { expression: { "<": [1, 5, 10] }, gives: true }, diagnosis: NOTHING },
  { name: "<=", signature: "a, b, c?", result: "a <= b; with three arguments a <= b <= c (between, inclusive)", example: { expression: { "<=": [1, 1, 3] }, gives: true }, diagnosis: NOTHING },
  { name: "max", signature: "number, ...", result: "the largest, null with no arguments", example: { expression: { max: [1, 7, 3] }, gives: 7 }, diagnosis: NOTHING },
  { name: "min", signature: "number, ...", result: "the smallest, null with no arguments", example: { expression: { min: [1, 7, 3] }, gives: 1 }, diagnosis: NOTHING },
  { name: "+", signature: "number, ...", result: "the sum, reading strings as numbers (\"3.5\" is 3.5); 0 with no arguments", example: { expression: { "+": [1, "2.5"] }, gives: 3.5 }, diagnosis: NOTHING },
  { name: "-", signature: "a, b?", result: "a - b, or -a with one argument", example: { expression: { "-": [10, 4] }, gives: 6 }, diagnosis: NOTHING },
  { name: "*", signature: "number, ...", result: "the product; null with no arguments", example: { expression: { "*": [2, 3] }, gives: 6 }, diagnosis: NOTHING },
  { name: "/", signature: "a, b", result: "a / b", example: { expression: { "/": [9, 3] }, gives: 3 }, diagnosis: NOTHING },
  { name: "%", signature: "a, b", result: "the remainder of a / b", example: { expression: { "%": [7, 3] }, gives: 1 }, diagnosis: NOTHING },
  { name: "map", signature: "list, expression over each item", result: "the expression's value for each item (var reads the item)", example: { expression: { map: [{ var: "output.items" }, { var: "id" }] }, data: { output: { items: [{ id: "A" }, { id: "B" }] } }, gives: ["A", "B"] }, diagnosis: NOTHING },
  { name: "filter", signature: "list, condition over each item", result: "the items for which the condition is truthy", example: { expression: { filter: [[1, 5, 9], { ">": [{ var: "" }, 4] }] }, gives: [5, 9] }, diagnosis: NOTHING },
  { name: "reduce", signature: "list, expression over { current, accumulator }, initial", result: "the accumulator after each item (var reads current and accumulator); the initial value when the list is not a list", example: { expression: { reduce: [[1, 2, 3], { "+": [{ var: "accumulator" }, { var: "current" }] }, 0] }, gives: 6 }, diagnosis: NOTHING },
  { name: "all", signature: "list, condition over each item", result: "true when every item meets the condition; false for an empty list", example: { expression: { all: [[2, 4], { "==": [{ "%": [{ var: "" }, 2] }, 0] }] }, gives: true }, diagnosis: NOTHING },
  { name: "some", signature: "list, condition over each item", result: "true when at least one item meets the condition", example: { expression: { some: [[1, 4], { ">": [{ var: "" }, 3] }] }, gives: true }, diagnosis: NOTHING },
  { name: "none", signature: "list, condition over each item", result: "true when no item meets the condition (true for a value that is not a list)", example: { expression: { none: [[1, 2], { ">": [{ var: "" }, 3] }] }, gives: true }, diagnosis: "over a join: the left of every pair that meets the condition; otherwise nothing" },
  { name: "merge", signature: "value or list, ...", result: "one list of all the arguments, lists flattened one level", example: { expression: { merge: [[1], 2, [3]] }, gives: [1, 2, 3] }, diagnosis: NOTHING },
  { name: "in", signature: "a, list or string", result: "true when a is an element of the list (strict equality) or a substring of the string", example: { expression: { in: ["b", ["a", "b"]] }, gives: true }, diagnosis: NOTHING },
  { name: "cat", signature: "value, ...", result: "the values joined as one string", example: { expression: { cat: ["total: ", 12] }, gives: "total: 12" }, diagnosis: NOTHING },
  { name: "substr", signature: "string, start, length?", result: "part of the string; a negative start counts from the end, a negative length leaves that many characters off", example: { expression: { substr: ["invoice", 0, 3] }, gives: "inv" }, diagnosis: NOTHING },
  { name: "log", signature: "value", result: "the value; writes nothing (standard output carries MCP)", example: { expression: { log: "x" }, gives: "x" }, diagnosis: NOTHING },
  { name: "results", signature: "operation (literal), path?", result: "the value at the path (the whole result without one) of every call this step made to that operation that was not an error, lists flattened one level; a result without the path adds nothing. The path reads dotted properties and does not map over lists: for the ids of a list use { map: [{ results: [op, items] }, { var: id }] }. Reads calls from the top of the data, so it works inside map and friends", example: { expression: { results: ["listInvoices", "invoices"] }, data: { calls: [{ tool: "listInvoices", arguments: {}, result: { invoices: [{ id: "A" }, { id: "B" }] }, is_error: false }] }, gives: [{ id: "A" }, { id: "B" }] }, diagnosis: NOTHING },
  { name: "object", signature: "[key, value] pairs", result: "an object with those keys and values; null if a pair is not [string, value]", example: { expression: { object: [["n", 1], ["ok", true]] }, gives: { n: 1, ok: true } }, diagnosis: NOTHING },
  { name: "assign", signature: "object, ...", result: "a new object with each argument's keys in turn, later ones winning; null if any argument is not an object", example: { expression: { assign: [{ object: [["a", 1]] }, { object: [["a", 2], ["b", 3]] }] }, gives: { a: 2, b: 3 } }, diagnosis: NOTHING },
  { name: "length", signature: "list or string", result: "the element count, or the Unicode code point count; null for anything else", example: { expression: { length: [[1, 2, 3]] }, gives: 3 }, diagnosis: NOTHING },
  { name: "unique", signature: "list", result: "the distinct elements (compared as JSON), first-seen order", example: { expression: { unique: [[1, 2, 1]] }, gives: [1, 2] }, diagnosis: NOTHING },
  { name: "subset", signature: "a, b", result: "true when every element of a is in b (compared as JSON); null unless both are lists", example: { expression: { subset: [["A"], ["A", "B"]] }, gives: true }, diagnosis: "the elements of a not in b" },
  { name: "difference", signature: "a, b", result: "the elements of a not in b (compared as JSON), in order; null unless both are lists", example: { expression: { difference: [["A", "C"], ["A", "B"]] }, gives: ["C"] }, diagnosis: NOTHING },
  { name: "keys", signature: "object", result: "its own keys in order; null for anything else, lists included", example: { expression: { keys: { object: [["a", 1], ["b", 2]] } }, gives: ["a", "b"] }, diagnosis: NOTHING },
  { name: "lower", signature: "string", result: "lower case; null for anything else", example: { expression: { lower: "PAID" }, gives: "paid" }, diagnosis: NOTHING },
  { name: "get", signature: "object or list, key", result: "the value under that key, read literally (a key \"a.b\" is one key); null if absent", example: { expression: { get: [["x", "y"], 1] }, gives: "y" }, diagnosis: NOTHING },
  { name: "join", signature: "left list, right list, left path, right path", result: "each left item as { left, right }: right is the first right item whose value at the right path equals (as JSON) the left item's value at the left path, or null when none does (absent values never match); null unless both are lists", example: { expression: { join: [{ var: "output.rows" }, { var: "inputs.paid" }, "id", "id"] }, data: { output: { rows: [{ id: 1 }, { id: 2 }] }, inputs: { paid: [{ id: 1, paid: true }] } }, gives: [{ left: { id: 1 }, right: { id: 1, paid: true } }, { left: { id: 2 }, right: null }] }, diagnosis: NOTHING },
  { name: "flatten", signature: "list", result: "the list flattened one level", example: { expression: { flatten: [[[1], [2, [3]]]] }, gives: [1, 2, [3]] }, diagnosis: NOTHING },
  { name: "host", signature: "URL string", result: "the lower-case host (with its port unless it is the default) of an absolute URL, else null", example: { expression: { host: "https://API.example.com:8443/x" }, gives: "api.example.com:8443" }, diagnosis: NOTHING },
  { name: "match_all", signature: "string, RE2 pattern", result: "capture group 1 of every match (null where it took no part), or the whole match when the pattern has no group; null if the first argument is not a string", example: { expression: { match_all: ["INV-1, INV-22", "INV-(\\d+)"] }, gives: ["1", "22"] }, diagnosis: NOTHING },
  { name: "sort_by", signature: "list, path, \"asc\" or \"desc\"?", result: "a stably sorted copy by the value at the path; numbers as numbers, strings by code point, null and missing last", example: { expression: { sort_by: [{ var: "output.items" }, "n"] }, data: { output: { items: [{ n: 2 }, { n: 1 }] } }, gives: [{ n: 1 }, { n: 2 }] }, diagnosis: NOTHING },
  { name: "time_add", signature: "RFC 3339 timestamp, seconds", result: "the time moved by that many seconds, in UTC (YYYY-MM-DDTHH:MM:SSZ, .sssZ with milliseconds); null if it does not parse", example: { expression: { time_add: ["2026-01-31T23:00:00Z", 3600] }, gives: "2026-02-01T00:00:00Z" }, diagnosis: NOTHING },
  { name: "time_diff", signature: "later, earlier", result: "the seconds from earlier to later (negative if later is earlier); null if either does not parse", example: { expression: { time_diff: ["2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"] }, gives: 86400 }, diagnosis: NOTHING },
];

/** The prose parts: scoping, calls, and how diagnoses are assembled. */
export const EXPRESSION_NOTES: readonly { title: string; text: string }[] = [
  {
    title: "What gates read",
    text: "Gates, explain, let and derive see { inputs, steps, output, calls, let }: the run's inputs, each earlier step's accepted output by step id, the submitted output (derived fields added), every call this step made through stepgate_call, and this step's let values. calls[] items are { tool, arguments, result, is_error }, and result is the parsed JSON of the response (an object or list you can read with var and results), even though the stepgate_call reply shows it to you as text. A body that is not JSON stays a string; for a call that failed (is_error true) result is the error response's body; for an MCP tool it is the structuredContent the tool returned, else its text parsed as JSON. results reads only the calls that did not fail. When the OpenAPI document is inline (or pinned by url and fetched), stepgate_validate checks paths read through results and calls[].result against the operation's response schemas (for calls[].result, every status the document lists, errors included; the union over the operations the step may call), and warns where they rule a name out or do not document it. Likewise for an MCP tool whose server (listed while validating) declares an outputSchema: what a successful call's structuredContent matches, so it judges results, responses.<id>, select and calls filtered on !is_error, not calls[].result unfiltered (an error result is held to no schema).",
  },
  {
    title: "var inside iterating operators",
    text: "Inside the second argument of map, filter, all, some and none, var reads the current item, and in reduce it reads { current, accumulator }: { var: output.total } there reads the item's output.total (usually null), not the step's output. To compare items with the output, inputs or other data: compute what you need outside the iteration (in let, or as the list itself), join the two lists first (none: [{ join: [{ var: output.rows }, { var: inputs.catalogue }, id, id] }, { \"!=\": [{ var: left.stock }, { var: right.stock }] }] reads left and right in each pair), carry the data in through reduce's accumulator, or use subset, difference and results, which read from the top of the data.",
  },
  {
    title: "How a failing gate's diagnosis is assembled",
    text: "A failed predicate gate's diagnosis is its message, a space, then: the value of explain when the gate has one (a string as it is, anything else as compact JSON; null, \"\" and [] add nothing, and the diagnosis then says \"(the explain expression produced nothing)\"); otherwise what the predicate's shape adds (the Diagnosis column; an and of such shapes joins what each failing part adds with \" | \"; a shape that finds nothing to show says so); otherwise nothing, just the message. It is cut at 2,000 characters. A predicate that cannot be evaluated fails with \"the check could not be evaluated: ...\". stepgate_validate warns about a predicate whose diagnosis would be the message alone.",
  },
];

function code(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

function exampleText(e: OperatorReference["example"]): string {
  return `${code(e.expression)}${e.data ? ` with ${code(e.data)}` : ""} gives ${code(e.gives)}`;
}

/** JSONLogic's own operators come first in the reference; Stepgate's, from `results` on, after them (format section 6). */
const FIRST_STEPGATE = OPERATOR_REFERENCE.findIndex((o) => o.name === "results");

/** Stepgate's operators, beyond JSONLogic's. */
export const STEPGATE_OPERATORS: readonly string[] = OPERATOR_REFERENCE.slice(FIRST_STEPGATE).map((o) => o.name);

/**
 * Markdown: the notes, then one table row per operator. The whole is what
 * docs/stepfile.md holds; the guide serves it in two sections, each a reply
 * of its own: the notes with JSONLogic's operators, and Stepgate's operators.
 */
export function expressionReferenceMarkdown(part: "all" | "jsonlogic" | "stepgate" = "all"): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  const lines: string[] = [];
  if (part !== "stepgate") for (const note of EXPRESSION_NOTES) lines.push(`**${note.title}.** ${note.text}`, "");
  lines.push("| Operator | Arguments | Result | Example | Diagnosis (as a predicate, without explain) |", "|---|---|---|---|---|");
  const ops = part === "all" ? OPERATOR_REFERENCE : part === "jsonlogic" ? OPERATOR_REFERENCE.slice(0, FIRST_STEPGATE) : OPERATOR_REFERENCE.slice(FIRST_STEPGATE);
  for (const op of ops) lines.push(`| \`${cell(op.name)}\` | ${cell(op.signature)} | ${cell(op.result)} | ${cell(exampleText(op.example))} | ${cell(op.diagnosis)} |`);
  return `${lines.join("\n")}\n`;
}

export const REFERENCE_START = "<!-- expression-reference: generated from src/authoring/expression-reference.ts by npm run expression-reference; do not edit -->";
export const REFERENCE_END = "<!-- end of expression-reference -->";
