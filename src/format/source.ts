// Parse a stepfile's text (YAML or JSON) into plain data, keeping enough of
// the syntax tree to point an issue at its line and column. JSON is parsed by
// the YAML parser too (JSON is YAML 1.2), so both spellings get positions.
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { Issue } from "../errors.js";

export type PathSegment = string | number;

export interface ParsedSource {
  data: unknown;
  /** 1-based line and column of the value (or key, for a missing field's parent) at a path. */
  locate(path: readonly PathSegment[], atKey?: boolean): { line: number; column: number } | undefined;
}

/** Deepest nesting a stepfile may have; deeper input would overflow recursive walkers. */
export const MAX_DEPTH = 128;

export function parseSource(text: string): ParsedSource | { issues: Issue[] } {
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    // Merge keys (`<<: *defaults`) are YAML 1.1's, but authors share anchors
    // that way in stepfiles and cases files alike, so they are read as merges.
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true, strict: true, version: "1.2", merge: true });
  } catch (error) {
    // The YAML parser recurses; absurd nesting overflows its stack.
    if (error instanceof RangeError) return { issues: [{ path: "", message: `nesting is deeper than ${MAX_DEPTH} levels` }] };
    throw error;
  }
  const problems = [...doc.errors];
  if (problems.some((e) => e.message.includes("Maximum call stack"))) {
    return { issues: [{ path: "", message: `nesting is deeper than ${MAX_DEPTH} levels` }] };
  }
  if (problems.length > 0) {
    return {
      issues: problems.map((error) => {
        const at = error.linePos?.[0];
        const message = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
        return { path: "", message, ...(at ? { line: at.line, column: at.col } : {}) };
      }),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof RangeError ? `nesting is deeper than ${MAX_DEPTH} levels` : (error as Error).message;
    return { issues: [{ path: "", message }] };
  }
  if (depthOf(data, 0) > MAX_DEPTH) {
    return { issues: [{ path: "", message: `nesting is deeper than ${MAX_DEPTH} levels` }] };
  }
  return { data, locate: (path, atKey) => locate(doc, lineCounter, path, atKey) };
}

function locate(doc: Document, lines: LineCounter, path: readonly PathSegment[], atKey = false) {
  // Walk as far down the path as the tree goes: an issue about a missing
  // field points at the object that lacks it.
  let node: Node | null | undefined = doc.contents as Node | null;
  let keyNode: Node | undefined;
  let depth = 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === segment);
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

function depthOf(value: unknown, depth: number): number {
  if (depth > MAX_DEPTH) return depth;
  if (Array.isArray(value)) return value.reduce<number>((max, v) => Math.max(max, depthOf(v, depth + 1)), depth + 1);
  if (value && typeof value === "object") {
    return Object.values(value).reduce<number>((max, v) => Math.max(max, depthOf(v, depth + 1)), depth + 1);
  }
  return depth;
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
