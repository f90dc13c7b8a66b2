// What an inline OpenAPI document promises of a successful result: the
// fields its response schemas list as `required` at a place. An API does
// not leave those out, so `field-missing` varies only the others: a
// variation the API's own document rules out is not one real APIs make.
import { isObject, type JsonObject } from "../../../format/json-pointer.js";
import type { PathSegment } from "../../../format/source.js";
import type { StepfileDocument } from "../../../format/types.js";
import { follow, inlineOperations, inlineResponseSchemas, type LocatedSchema } from "../../../loader/response-schemas.js";

/** Whether the document requires the field at `path` of a successful `operation` result. */
export type DocumentedRequired = (operation: string, path: readonly PathSegment[]) => boolean;

export function documentedRequired(doc: StepfileDocument): DocumentedRequired {
  let responses: ReturnType<typeof inlineResponseSchemas> | undefined;
  return (operation, path) => {
    responses ??= inlineResponseSchemas(inlineOperations(doc));
    const schemas = responses.get(operation)?.success;
    // Required in every schema the result may match: one that leaves it optional allows it missing.
    return schemas !== undefined && schemas.length > 0 && schemas.every((s) => requiredAt(s, path));
  };
}

function requiredAt(located: LocatedSchema, path: readonly PathSegment[]): boolean {
  const root = located.root as JsonObject;
  let node = follow(located.schema, root);
  for (const [i, segment] of path.entries()) {
    if (!isObject(node)) return false;
    if (typeof segment === "number") {
      node = follow(node.items, root);
      continue;
    }
    const last = i === path.length - 1;
    if (last) return Array.isArray(node.required) && node.required.includes(segment);
    node = follow(isObject(node.properties) ? node.properties[segment] : undefined, root);
  }
  return false;
}
