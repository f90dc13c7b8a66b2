// Criterion Objects (successCriteria, and the criteria of actions) turned
// into boolean expressions: `simple` conditions, `regex` over a context, and
// `jsonpath` filters (`$[?...]`) over a context, per the Arazzo
// Specification, "Criterion Object" and "Criterion Expression Type Object"
// (OAI/Arazzo-Specification, versions/1.0.1.md, commit
// fc140d26c440291b0061c62a53e45a8fb07cc369). A regex condition written as
// a JavaScript literal is read as one (regex-literal.ts). `xpath` is
// refused. A Criterion Expression Type Object's version must be one the
// specification lists.
//
// `$statusCode`: a stepfile call keeps only the body, and reaching a step's
// output means the API answered with success. So the status is one of the
// success codes the operation documents: the condition is lowered once per
// documented code, and converts only when every code gives the same
// expression (`$statusCode == 200` for an operation documenting only 200 is
// `true`; one documenting 200 and 201 cannot say which it was).
import { matchAll } from "../expr/operators/match-all.js";
import { compileRegex } from "../expr/regex.js";
import { ConditionSyntax, parseCondition, type Node } from "./condition-parser.js";
import { translateExpression, type Scope } from "./expressions.js";
import { and, not, or, path, type Logic } from "./json-logic.js";
import { refuse, WorkflowRefused } from "./refusals.js";
import { regexCondition } from "./regex-literal.js";

export interface Criterion {
  condition: string;
  context?: string;
  type?: string | { type: string; version?: string };
}

/** Where a criterion is evaluated: the scope, and the success codes a response here can have (undefined: no response). */
export interface CriteriaPlace {
  scope: Scope;
  /** The construct, for refusals: `successCriteria[0]`, `onSuccess[1] (end finish).criteria[0]`. */
  construct: string;
  statusCodes?: readonly number[];
}

/** Every criterion of a list, all of which must hold (an empty list holds). */
export function criteriaExpression(criteria: readonly Criterion[], place: CriteriaPlace): Logic {
  return and(criteria.map((c, i) => criterionExpression(c, { ...place, construct: `${place.construct}[${i}]` })));
}

export function criterionExpression(criterion: Criterion, place: CriteriaPlace): Logic {
  try {
    return lowerCriterion(criterion, place);
  } catch (error) {
    // A refusal from inside (a runtime expression the criterion reads) is named from the criterion.
    if (!(error instanceof WorkflowRefused) || error.refusal.construct.startsWith(place.construct)) throw error;
    const r = error.refusal;
    return refuse(place.scope, `${place.construct} (${JSON.stringify(criterion.condition)}), ${r.construct}`, r.reason, r.fix);
  }
}

/** The criterion's type, whether written as a string or as a Criterion Expression Type Object; `simple` when omitted. */
export function criterionType(criterion: Criterion): string {
  return typeof criterion.type === "object" ? criterion.type.type : criterion.type ?? "simple";
}

/**
 * The versions a Criterion Expression Type Object may name: versions/1.0.1.md
 * lists draft-goessner-dispatch-jsonpath-00 (RFC 9535 is the default without
 * the object) and xpath-30, xpath-20, xpath-10; 1.1's Expression Type Object
 * adds rfc9535 and xpath-31. The schema of the document's minor version holds
 * it to that version's list; this union is for documents no schema checked.
 */
const EXPRESSION_VERSIONS: Record<string, readonly string[]> = {
  jsonpath: ["rfc9535", "draft-goessner-dispatch-jsonpath-00"],
  xpath: ["xpath-10", "xpath-20", "xpath-30", "xpath-31"],
};

function lowerCriterion(criterion: Criterion, place: CriteriaPlace): Logic {
  const type = criterionType(criterion);
  const construct = `${place.construct} (${type} ${JSON.stringify(criterion.condition)})`;
  const at = { ...place, construct };
  if (typeof criterion.type === "object") {
    const versions = EXPRESSION_VERSIONS[type];
    const { version } = criterion.type;
    if (!versions) refuse(place.scope, `${place.construct}.type`, `a Criterion Expression Type Object's type is jsonpath or xpath, not ${type}`, `write type: ${type} as a string, or name jsonpath or xpath`);
    // Arazzo 1.1 lets the version be omitted, for the type's default.
    if (version !== undefined && !versions.includes(version)) {
      refuse(place.scope, `${place.construct}.type.version`, `${JSON.stringify(version)} is not a ${type} version Arazzo defines (${versions.join(", ")})`, `name one of those versions, or write type: ${type} for its default`);
    }
  }
  switch (type) {
    case "simple":
      return folded(at, (status) => lower(parse(criterion.condition, at), at, status, undefined));
    case "regex": {
      if (criterion.context === undefined) refuse(place.scope, construct, "a regex criterion needs a context", "give the runtime expression it applies to as context");
      const read = regexCondition(criterion.condition);
      if ("problem" in read) refuse(place.scope, construct, `the condition is a JavaScript regex literal, and ${read.problem}`, "drop the flag, or write the check as a simple condition");
      const { pattern } = read;
      try {
        compileRegex(pattern);
      } catch (error) {
        refuse(place.scope, construct, `the pattern does not compile under RE2, which stepfile regexes use (${(error as Error).message})`, "write the pattern without lookahead or backreferences");
      }
      return folded(at, (status) => {
        const context = value(criterion.context!, at, status);
        if (!isConstant(context)) return { "!!": [{ length: { match_all: [{ cat: [context] }, pattern] } }] };
        return (matchAll(compileRegex(pattern), String(context)) as unknown[]).length > 0;
      });
    }
    case "jsonpath": {
      if (criterion.context === undefined) refuse(place.scope, construct, "a jsonpath criterion needs a context", "give the runtime expression it applies to as context");
      const filter = /^\$\[\?\(?(.*?)\)?\]$/s.exec(criterion.condition.trim());
      if (!filter) {
        const rewrite = filterMeant(criterion.condition);
        refuse(place.scope, construct, "only a filter over the context ($[?<filter>]) has a stepfile expression", rewrite ? `write it as the filter ${rewrite}` : "write the check as $[?@.name == value] or as a simple condition");
      }
      const measured = lengthsMeant(criterion.condition);
      if (measured) {
        refuse(
          place.scope,
          construct,
          `${measured.read.join(" and ")} reads a member named length, which an array does not have (RFC 9535 has no .length; an array's size is length(), section 2.4.4), so on an array the filter never holds`,
          `write it as the filter ${measured.filter}, or ${measured.member} for a member named length`,
        );
      }
      return folded(at, (status) => {
        const context = value(criterion.context!, at, status);
        return lower(parse(filter[1]!, at), at, status, context);
      });
    }
    default:
      return refuse(place.scope, construct, `${type} criteria have no stepfile expression`, "write the check as a simple condition over $response.body");
  }
}

/**
 * The filter a query-then-comparison means, for the refusal to name:
 * `$.name == 'x'` (Redocly's museum example) is not a JSONPath query under
 * either version, and Respect 2.77.0's JSONPath parser refuses it too (its
 * criterion then fails). A trailing `.length` is JavaScript's array length,
 * which RFC 9535 spells `length(@.x)` (section 2.4.4); `@.x.length` would
 * read a member named length, which no array has.
 */
function filterMeant(condition: string): string | undefined {
  const comparison = /^\$((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+)\s*(==|!=|<=|>=|<|>)\s*(.+)$/s.exec(condition.trim());
  if (!comparison) return undefined;
  const [, path, op, operand] = comparison as unknown as [string, string, string, string];
  const measured = /^(.*)\.length$/.exec(path);
  const left = measured ? `length(@${measured[1]!})` : `@${path}`;
  return `$[?${left} ${op} ${operand.trim()}]`;
}

/**
 * A filter that reads `.length` as JavaScript's array length
 * (`$[?@.items.length > 0]`), with each such read written as RFC 9535's
 * `length(@.items)`, in the filter as written (parentheses, spacing and
 * operator kept). Under RFC 9535 `@.items.length` selects a member named
 * length, which no array has, so the filter never holds on one. An object
 * may have such a member, and the text cannot tell; this takes the reading
 * the `$.x.length == n` refusal above takes (filterMeant), that `.length`
 * last in a dotted path means the size, and leaves `@.items['length']`,
 * the bracketed spelling, to read the member. Strings are skipped whole, so
 * `'@.a.length'` is a literal.
 */
function lengthsMeant(condition: string): { read: string[]; filter: string; member: string } | undefined {
  const read: string[] = [];
  let member = "";
  const filter = condition.replace(LENGTH_READ, (whole: string, path: string | undefined) => {
    if (path === undefined) return whole;
    read.push(whole);
    member ||= `@${path}['length']`;
    return `length(@${path})`;
  });
  return read.length > 0 ? { read, filter, member } : undefined;
}

/** A quoted string (kept as it is), or `@`, a path of names and indexes, then `.length` ending the path. */
const LENGTH_READ = /'(?:[^']|'')*'|"[^"]*"|@((?:\.[A-Za-z_][A-Za-z0-9_-]*|\[(?:\d+|'(?:[^']|'')*'|"[^"]*")\])*)\.length(?![A-Za-z0-9_.[(-])/g;

function parse(text: string, place: CriteriaPlace): Node {
  try {
    return parseCondition(text);
  } catch (error) {
    if (error instanceof ConditionSyntax) return refuse(place.scope, place.construct, `the condition does not parse: ${error.message}`, "write it with the literals and operators the Criterion Object defines");
    throw error;
  }
}

/**
 * The statuses (100-599) for which every criterion holds, when the criteria
 * are simple conditions that read nothing but `$statusCode`, so each status
 * folds them to true or false (`$statusCode >= 500`, `$statusCode == 429 ||
 * $statusCode == 503`); undefined when they read anything else. A retry's
 * criteria are judged by this set (actions.ts).
 */
export function statusesWhere(criteria: readonly Criterion[], place: CriteriaPlace): number[] | undefined {
  if (criteria.length === 0 || criteria.some((c) => criterionType(c) !== "simple")) return undefined;
  const nodes = criteria.map((c) => parse(c.condition, place));
  const holding: number[] = [];
  for (let status = 100; status <= 599; status++) {
    let holds = true;
    for (const node of nodes) {
      let folded: Logic;
      try {
        folded = lower(node, place, status, undefined);
      } catch (error) {
        if (error instanceof WorkflowRefused) return undefined;
        throw error;
      }
      if (typeof folded !== "boolean") return undefined;
      holds &&= folded;
    }
    if (holds) holding.push(status);
  }
  return holding;
}

/** Lower once per possible status code; the results must agree (see the file's opening comment). */
function folded(place: CriteriaPlace, lowerWith: (status: number | undefined) => Logic): Logic {
  const codes = place.statusCodes;
  const first = lowerWith(codes?.[0]);
  if (codes === undefined || codes.length <= 1) return checked(first, place);
  for (const code of codes.slice(1)) {
    if (JSON.stringify(lowerWith(code)) !== JSON.stringify(first)) {
      refuse(
        place.scope,
        place.construct,
        `it tells the operation's success statuses (${codes.join(", ")}) apart, and a stepfile call knows only that the call succeeded`,
        "read a field of the response body that differs between them instead of $statusCode",
      );
    }
  }
  return checked(first, place);
}

function checked(expr: Logic, place: CriteriaPlace): Logic {
  if (expr === false) {
    refuse(place.scope, place.construct, `it can never hold in a stepfile: a call that reaches its criteria succeeded with ${place.statusCodes?.join(" or ") ?? "a success status"}`, "check a status the operation documents as success, or a field of the response body");
  }
  return typeof expr === "boolean" || isBooleanOp(expr) ? expr : { "!!": [expr] };
}

const BOOLEAN_OPS = new Set(["==", "!=", "<", "<=", ">", ">=", "!", "!!", "and", "or"]);
function isBooleanOp(expr: Logic): boolean {
  return expr !== null && typeof expr === "object" && !Array.isArray(expr) && BOOLEAN_OPS.has(Object.keys(expr)[0]!);
}

function isConstant(expr: Logic): expr is null | boolean | number | string {
  return expr === null || typeof expr !== "object";
}

function value(text: string, place: CriteriaPlace, status: number | undefined): Logic {
  return translateExpression(text, { ...place.scope, ...(status !== undefined ? { statusCode: status } : {}) });
}

/** A node as an expression, with constants folded so status comparisons become true or false. */
function lower(node: Node, place: CriteriaPlace, status: number | undefined, current: Logic | undefined): Logic {
  const recur = (n: Node) => lower(n, place, status, current);
  switch (node.kind) {
    case "literal":
      return node.value;
    case "expression": {
      const base = value(node.text, place, status);
      return node.keys.length === 0 ? base : below(base, node.keys);
    }
    case "current":
      if (current === undefined) refuse(place.scope, place.construct, "@ is read only inside a JSONPath filter", "read the value with a runtime expression");
      return node.keys.length === 0 ? current : below(current, node.keys);
    case "not": {
      const operand = recur(node.operand);
      return isConstant(operand) ? !operand : not(operand);
    }
    case "logic": {
      const parts = [recur(node.left), recur(node.right)].map((p) => (isConstant(p) ? Boolean(p) : p));
      return node.op === "&&" ? and(parts) : or(parts);
    }
    case "compare":
      return comparison(node.op, recur(node.left), recur(node.right));
    case "call":
      if (node.name === "length" && node.args.length === 1) return { length: recur(node.args[0]!) };
      return refuse(
        place.scope,
        place.construct,
        node.name === "count"
          ? "count() counts the nodes a query selects (RFC 9535, section 2.4.5), which a stepfile expression cannot; count(@.items) is 1 whenever items exists"
          : `the function ${node.name}() has no stepfile expression`,
        node.name === "count" ? "write length(@.items) for the size of an array" : "use length() or a comparison",
      );
  }
}

function below(base: Logic, keys: readonly (string | number)[]): Logic {
  if (base !== null && typeof base === "object" && "var" in base && typeof (base as { var: unknown }).var === "string") {
    const [root, ...rest] = (base as { var: string }).var.split(".");
    return path(root!, [...rest, ...keys]);
  }
  let expr = base;
  for (const key of keys) expr = { get: [expr, key] };
  return expr;
}

/** A comparison; string comparisons are case-insensitive, as the Criterion Object says. */
function comparison(op: string, left: Logic, right: Logic): Logic {
  if (isConstant(left) && isConstant(right)) return constantCompare(op, left, right);
  const lowerCase = (side: Logic, other: Logic) => (typeof other === "string" && !isConstant(side) ? { lower: side } : typeof side === "string" ? side.toLowerCase() : side);
  const l = lowerCase(left, right);
  const r = lowerCase(right, left);
  if (op === "!=") return { "!=": [l, r] };
  return { [op]: [l, r] };
}

function constantCompare(op: string, a: null | boolean | number | string, b: null | boolean | number | string): boolean {
  const x = typeof a === "string" ? a.toLowerCase() : a;
  const y = typeof b === "string" ? b.toLowerCase() : b;
  switch (op) {
    case "==":
      return x == y; // the Criterion Object compares loosely
    case "!=":
      return x != y; // as above
    case "<":
      return (x as number) < (y as number);
    case "<=":
      return (x as number) <= (y as number);
    case ">":
      return (x as number) > (y as number);
    default:
      return (x as number) >= (y as number);
  }
}
