// Parse a stepfile's text (YAML or JSON) into plain data, with a way to point
// an issue at its line and column. JSON is parsed by the YAML parser too
// (JSON is YAML 1.2), so both spellings get positions. Text of the plain
// shape most stepfiles have is read fast, without positions (fast-yaml.ts),
// and parsed again with positions only if an issue must be placed; any other
// text, and every text with a YAML error, goes through the positioned parse.
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { Issue } from "../errors.js";
import { fastParse } from "./fast-yaml.js";
import { flowKeysWithoutValue } from "./flow-keys-without-value.js";
import { depthOf, flowTooDeep, MAX_DEPTH } from "./nesting.js";
import { yamlWarnings } from "./yaml-warnings.js";
import { duplicateKeyCheck, hasDuplicateKeys } from "./unique-keys.js";

export type PathSegment = string | number;

export interface ParsedSource {
  data: unknown;
  /** Placed warnings about the text itself: a JSON text's repeated keys (see `jsonWithDuplicates`), a flow mapping's key with no value (flow-keys-without-value.ts). */
  warnings?: Issue[];
  /** 1-based line and column of the value (or key, for a missing field's parent) at a path. */
  locate(path: readonly PathSegment[], atKey?: boolean): { line: number; column: number } | undefined;
}

export { MAX_DEPTH };

export function parseSource(text: string): ParsedSource | { issues: Issue[] } {
  // The fast reader is the parse (data and positions); `yaml` reads only what it declines.
  // It declines past MAX_DEPTH itself (data nesting as depthOf counts it), so neither
  // scan below runs on the texts it reads: together they were a sixth of its parse.
  const fast = fastParse(text);
  if (fast) return fast;
  // Before `yaml`: deep flow nesting aborts the process inside it (nesting.ts).
  const deep = flowTooDeep(text, MAX_DEPTH);
  if (deep) return { issues: [{ ...TOO_DEEP, line: deep.line, column: deep.column }] };
  const parsed = parseYaml(text, false);
  if ("issues" in parsed) return parsed;
  const { doc, lineCounter } = parsed;
  if (doc.errors.length > 0) return { issues: yamlIssues(text) };
  let warnings: Issue[] | undefined;
  let data: unknown;
  if (hasDuplicateKeys(doc)) {
    const json = jsonWithDuplicates(text, doc, lineCounter);
    if (!json) return { issues: yamlIssues(text) };
    ({ data, warnings } = json);
  } else {
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      return { issues: [error instanceof RangeError ? TOO_DEEP : { path: "", message: (error as Error).message }] };
    }
  }
  if (depthOf(data, 0) > MAX_DEPTH) return { issues: [TOO_DEEP] };
  const found = [...flowKeysWithoutValue(doc, lineCounter, pathString), ...yamlWarnings(text, doc, lineCounter, pathString)];
  if (found.length > 0) warnings = [...(warnings ?? []), ...found].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { data, ...(warnings ? { warnings } : {}), locate: (path, atKey) => locate(doc, lineCounter, path, atKey) };
}

/**
 * YAML 1.2 requires a mapping's keys to be unique, so a YAML text that
 * repeats one is refused. JSON (RFC 8259) only says names SHOULD be unique,
 * and JSON.parse, as any other runtime reading a JSON stepfile would, keeps
 * the last value; the format names no rule against it, so a text that is
 * JSON loads here as JSON.parse reads it, with a warning at each repeated
 * name (placed through the YAML document, which keeps every pair; `locate`
 * reads the last). Undefined when the text is not JSON.
 */
function jsonWithDuplicates(text: string, doc: Document, lines: LineCounter): { data: unknown; warnings: Issue[] } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const warnings: Issue[] = [];
  const stack: Array<{ node: unknown; path: PathSegment[] }> = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = (pair.key as { value?: unknown } | null)?.value;
        if (seen.has(key)) {
          const at = lines.linePos((pair.key as Node).range![0]);
          warnings.push({ path: pathString([...path, String(key)]), message: `${JSON.stringify(key)} is repeated in this object; as JSON, the last value counts`, line: at.line, column: at.col, rule: "duplicate-json-key" });
        }
        seen.add(key);
        stack.push({ node: pair.value, path: [...path, String(key)] });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => stack.push({ node: item, path: [...path, index] }));
    }
  }
  return { data, warnings: warnings.sort((a, b) => a.line! - b.line! || a.column! - b.column!) };
}

const TOO_DEEP: Issue = { path: "", message: `nesting is deeper than ${MAX_DEPTH} levels` };

/**
 * The text as a YAML document with positions, or the too-deep issue.
 * Duplicate keys are not checked here (the parser's check is quadratic):
 * `hasDuplicateKeys` finds them, and `yamlIssues` reports them.
 */
function parseYaml(text: string, uniqueKeys: boolean | ((a: unknown, b: unknown) => boolean)): { doc: Document; lineCounter: LineCounter } | { issues: Issue[] } {
  const lineCounter = new LineCounter();
  try {
    // Merge keys (`<<: *defaults`) are YAML 1.1's, but authors share anchors
    // that way in stepfiles and cases files alike, so they are read as merges.
    // Errors are placed by yamlIssues, so the parser need not dress them up.
    // logLevel "error": what `yaml` warns of is a finding (yaml-warnings.ts), never a line it prints itself.
    const doc = parseDocument(text, { lineCounter, uniqueKeys, prettyErrors: false, strict: true, version: "1.2", merge: true, logLevel: "error" });
    return { doc, lineCounter };
  } catch (error) {
    // The YAML parser recurses; absurd nesting overflows its stack.
    if (error instanceof RangeError) return { issues: [TOO_DEEP] };
    throw error;
  }
}

/**
 * Every YAML error in the text, duplicate keys included, in the parser's
 * order and with its line and column. Only for text that has at least one:
 * it parses again, with a linear duplicate-key check that reports exactly
 * what the parser's own would.
 */
function yamlIssues(text: string): Issue[] {
  const check = duplicateKeyCheck();
  // The check has the parser make an error object for every key after each
  // mapping's first and drops the false ones; stack traces for them would
  // cost more than the parse.
  const traceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let parsed: ReturnType<typeof parseYaml>;
  try {
    parsed = parseYaml(text, check.uniqueKeys);
  } finally {
    Error.stackTraceLimit = traceLimit;
  }
  if ("issues" in parsed) return parsed.issues;
  const problems = check.keep(parsed.doc.errors);
  if (problems.some((e) => e.message.includes("Maximum call stack"))) return [TOO_DEEP];
  return problems.map((error) => {
    if (error.pos[0] === -1) return { path: "", message: firstLine(error.message) };
    const at = parsed.lineCounter.linePos(error.pos[0]);
    // As the parser's pretty errors read (its message, then " at line L, column C"), less the position.
    return { path: "", message: firstLine(`${error.message} at line ${at.line}, column ${at.col}`), line: at.line, column: at.col };
  });
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
}

function locate(doc: Document, lines: LineCounter, path: readonly PathSegment[], atKey = false) {
  // Walk as far down the path as the tree goes: an issue about a missing
  // field points at the object that lacks it.
  let node: Node | null | undefined = doc.contents as Node | null;
  let keyNode: Node | undefined;
  let depth = 0;
  for (const segment of path) {
    if (isMap(node)) {
      // The last pair with the key: only a JSON text may repeat one, and there the last value counts.
      const pair = node.items.findLast((p) => (p.key as { value?: unknown } | null)?.value === segment);
      if (!pair) break;
      keyNode = pair.key as Node;
      node = pair.value as Node | null;
      depth += 1;
      if (!node) break;
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment] as Node | undefined;
      if (!item) break;
      node = item;
      keyNode = undefined;
      depth += 1;
    } else break;
  }
  const range = (atKey && depth === path.length ? keyNode?.range : undefined) ?? node?.range ?? keyNode?.range;
  if (!range) return undefined;
  const pos = lines.linePos(range[0]);
  return { line: pos.line, column: pos.col };
}


/** `steps[1].gates[0].predicate` from path segments. */
export function pathString(path: readonly PathSegment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
