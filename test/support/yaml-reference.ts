// The oracle for src/format/source.ts: how a stepfile's text was parsed
// before the fast read and the linear duplicate-key check, with `yaml`'s
// own (quadratic) `uniqueKeys` and pretty errors. Tests compare the two on
// whole files and on mutations of them; keep it as it was, not in step
// with source.ts (one rule since: a JSON text may repeat a name).
import { LineCounter, parseDocument } from "yaml";
import type { Issue } from "../../src/errors.js";
import { MAX_DEPTH } from "../../src/format/source.js";

export function referenceParse(text: string): { data: unknown } | { issues: Issue[] } {
  const tooDeep = { issues: [{ path: "", message: `nesting is deeper than ${MAX_DEPTH} levels` }] };
  const lineCounter = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true, strict: true, version: "1.2", merge: true });
  } catch (error) {
    if (error instanceof RangeError) return tooDeep;
    throw error;
  }
  const problems = [...doc.errors];
  if (problems.some((e) => e.message.includes("Maximum call stack"))) return tooDeep;
  // Since JSON stepfiles may repeat a name (docs/stepfile.md, Warnings): a text
  // whose only errors are repeated keys and that JSON.parse reads is that data.
  if (problems.length > 0 && problems.every((e) => e.code === "DUPLICATE_KEY")) {
    const json = jsonData(text);
    if (json) return depthOf(json.data) > MAX_DEPTH ? tooDeep : json;
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
    return error instanceof RangeError ? tooDeep : { issues: [{ path: "", message: (error as Error).message }] };
  }
  return depthOf(data) > MAX_DEPTH ? tooDeep : { data };
}

function jsonData(text: string): { data: unknown } | undefined {
  try {
    return { data: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * How deeply the value nests, counted until it passes MAX_DEPTH (only that
 * is asked). It stops there: an alias inside its own anchored value gives a
 * cycle, and walking every branch of a cycle down to MAX_DEPTH is
 * exponential (seed 554508237 of the alias property hung the suite).
 */
function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return depth;
  let max = depth + 1;
  for (const inner of Object.values(value)) {
    max = Math.max(max, depthOf(inner, depth + 1));
    if (max > MAX_DEPTH) break;
  }
  return max;
}
