// What `yaml` warns of and reads anyway, as findings at their place: a tag it
// cannot resolve (the value is read as if untagged), a directive it does not
// know, an anchor or alias ending in `:`, a flow collection's bad
// indentation (its document's `warnings`), and a collection used as a
// mapping key, which toJS turns into its text. `yaml` would print each with
// process.emitWarning (or console.warn) on standard error, which in stdio
// mode without --ledger-dir carries only ledger lines, and name no file; the
// parse sets its logLevel to "error" (source.ts) and reports them here
// instead, rule `yaml-warning` (src/loader/rules/yaml-warning.ts). Only the
// positioned parse meets any of these: the fast reader declines tags,
// directives, explicit keys and whatever else it is unsure of.
import { isCollection, isMap, isSeq, type Document, type LineCounter } from "yaml";
import type { Issue } from "../errors.js";
import type { PathSegment } from "./source.js";

/** A warning at each of the document's own warnings and at each key that is a collection; `pathString` is source.ts's (which imports this file). */
export function yamlWarnings(text: string, doc: Document, lines: LineCounter, pathString: (path: readonly PathSegment[]) => string): Issue[] {
  const warnings: Issue[] = doc.warnings.map((warning) => {
    const offset = warning.pos[0];
    const at = offset >= 0 ? lines.linePos(offset) : undefined;
    const message = `${firstLine(warning.message)} (${warning.code}); YAML reads it anyway, ${READS[warning.code] ?? "as it says"}`;
    return { path: offset >= 0 ? pathString(pathAt(doc, offset)) : "", message, ...(at ? { line: at.line, column: at.col } : {}), rule: "yaml-warning" };
  });
  const stack: Array<{ node: unknown; path: PathSegment[] }> = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as { range?: [number, number, number] | null; toString(): string; value?: unknown } | null;
        if (isCollection(key) && key.range) {
          const at = lines.linePos(key.range[0]);
          const written = text.slice(key.range[0], key.range[1]).trim();
          const shown = written.length > 60 ? `${written.slice(0, 57)}...` : written;
          warnings.push({ path: pathString(path), message: `a key is a collection (${shown}); a key of the data is text, so YAML writes this one out as text in its own spelling; write the key you mean as a quoted string`, line: at.line, column: at.col, rule: "yaml-warning" });
        }
        stack.push({ node: pair.value, path: [...path, key === null || isCollection(key) ? "" : String(key.value)] });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => stack.push({ node: item, path: [...path, index] }));
    }
  }
  return warnings;
}

type Ranged = { range?: [number, number, number] | null } | null;

/** The path of the innermost value (or key's value) whose text holds `offset`. */
function pathAt(doc: Document, offset: number): PathSegment[] {
  const path: PathSegment[] = [];
  const holds = (node: unknown) => {
    const range = (node as Ranged)?.range;
    return range !== undefined && range !== null && offset >= range[0] && offset < range[2];
  };
  let node: unknown = doc.contents;
  for (;;) {
    if (isMap(node)) {
      // From the key's start to the value's end: a tag or anchor between them is the pair's too.
      const pair = node.items.find((p) => {
        const from = (p.key as Ranged)?.range?.[0];
        const to = (p.value as Ranged)?.range?.[2];
        return holds(p.key) || holds(p.value) || (from !== undefined && to !== undefined && offset >= from && offset < to);
      });
      if (!pair) return path;
      const key = pair.key as { value?: unknown } | null;
      path.push(key === null || isCollection(key) ? "" : String(key.value));
      if (!holds(pair.value)) return path;
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex(holds);
      if (index === -1) return path;
      path.push(index);
      node = node.items[index];
    } else return path;
  }
}

/** What the value becomes, by warning code. */
const READS: Readonly<Record<string, string>> = {
  TAG_RESOLVE_FAILED: "as if it had no tag",
  BAD_COLLECTION_TYPE: "as the collection it is, not as the tag says",
  BAD_ALIAS: "with the `:` as part of the name",
  BAD_INDENT: "as if it were indented enough",
};

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
}
