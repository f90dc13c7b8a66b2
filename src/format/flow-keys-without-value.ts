// A flow mapping's entry with no `:` is a key whose value is null (YAML 1.2,
// 7.4.1, "implicit" entries): in `{ title: Shop API, v2 (beta), version: 1 }`
// the comma ends `title`'s value, and `v2 (beta)` becomes a key of its own.
// Four catalog entries shipped with such a key before this was a warning,
// each meaning one quoted title. Only the positioned parse sees it (the fast
// reader declines a key with no value), so the parse reports it, rule
// `flow-key-without-value` (src/loader/rules/flow-key-without-value.ts).
import { isMap, isScalar, isSeq, type Document, type LineCounter } from "yaml";
import type { Issue } from "../errors.js";
import type { PathSegment } from "./source.js";

/** A warning at each flow-mapping key written with no `:` and no value; `pathString` is source.ts's (which imports this file). */
export function flowKeysWithoutValue(doc: Document, lines: LineCounter, pathString: (path: readonly PathSegment[]) => string): Issue[] {
  const warnings: Issue[] = [];
  const stack: Array<{ node: unknown; path: PathSegment[] }> = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key : undefined;
        // `pair.value` is null only where the entry has no `:` at all (`{ a: }` gives a null scalar).
        if (node.flow === true && pair.value === null && key?.range !== undefined && key.range !== null) {
          const at = lines.linePos(key.range[0]);
          const text = String(key.value);
          warnings.push({
            path: pathString([...path, text]),
            message: `${JSON.stringify(text)} is a key with no value: in a flow mapping ({ ... }) an unquoted comma ends an entry, so the text after it became a key; quote the value that holds the comma, or write "${text}: null" if a key with no value is meant`,
            line: at.line,
            column: at.col,
            rule: "flow-key-without-value",
          });
        }
        stack.push({ node: pair.value, path: [...path, key === undefined ? "" : String(key.value)] });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => stack.push({ node: item, path: [...path, index] }));
    }
  }
  return warnings.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
}
