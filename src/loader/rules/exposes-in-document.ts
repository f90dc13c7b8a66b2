// Format section 2: each exposed operationId of an OpenAPI tool becomes one
// operation. An inline document is known at load, so a name it has no
// operation for is refused there, naming it, instead of loading clean and
// then failing every run's preflight (issue 29). A document fetched by `url`
// is known only at preflight, and one whose path items are `$ref`s is
// dereferenced there first; both are left to preflight.
import { isObject } from "../../format/json-pointer.js";
import { HTTP_METHODS } from "../../format/http-methods.js";
import { capText, quote } from "../../quote.js";
import type { Rule } from "./rule.js";

export const exposesInDocument: Rule = {
  id: "exposes-in-document",
  severity: "error",
  description: "An OpenAPI tool exposes a name that is no operationId of its inline document.",
  check({ doc, report }) {
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
        report(["tools", toolId, "exposes", i], `operation ${quote(name)} is not in this tool's inline document (${known})`);
      });
    }
  },
};
