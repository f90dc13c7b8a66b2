// Format section 2: each exposed operationId of an OpenAPI tool becomes one
// operation. An inline document is known at load, so a name it has no
// operation for is refused there, naming it, instead of loading clean and
// then failing every run's preflight (issue 29). A document fetched by `url`
// is known only at preflight, and one whose path items are `$ref`s is
// dereferenced there first; both are left to preflight.
import { isObject } from "../format/json-pointer.js";
import { HTTP_METHODS } from "../format/http-methods.js";
import type { RawIssue } from "../format/rules.js";
import type { StepfileDocument } from "../format/types.js";
import { capText, quote } from "../quote.js";

export function exposedOperationIssues(doc: StepfileDocument): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    const document = tool.openapi?.document;
    if (!isObject(document) || !isObject(document.paths)) continue;
    const items = Object.values(document.paths);
    if (items.some((item) => !isObject(item) || item.$ref !== undefined)) continue;
    const ids = new Set<string>();
    for (const item of items as Array<Record<string, unknown>>) {
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (isObject(operation) && typeof operation.operationId === "string") ids.add(operation.operationId);
      }
    }
    (tool.exposes ?? []).forEach((exposed, i) => {
      const name = typeof exposed === "string" ? exposed : exposed.name;
      if (typeof name !== "string" || ids.has(name)) return;
      const known = ids.size === 0 ? "it has no operationId" : `its operationIds: ${capText([...ids].join(", "))}`;
      issues.push({ path: ["tools", toolId, "exposes", i], message: `operation ${quote(name)} is not in this tool's inline document (${known})` });
    });
  }
  return issues;
}
