// A workflow's `inputs` (a JSON Schema 2020-12 object, which may `$ref`
// `#/components/inputs/<name>`, per the Workflow and Components Objects of
// OAI/Arazzo-Specification versions/1.0.1.md at fc140d26c440291b0061c62a53e45a8fb07cc369)
// as the stepfile's `inputs` (format section 1: JSON Schema 2020-12 with
// `type: object`). References into components are inlined, since a
// stepfile's schemas can only reach its own `$defs`.
import { isObject, resolvePointer, type JsonObject } from "../format/json-pointer.js";
import { refuse, type Place } from "./refusals.js";

export function inputsSchema(raw: unknown, document: JsonObject, place: Place): JsonObject {
  if (raw === undefined) return { type: "object" };
  const schema = inlined(raw, document, place, new Set());
  if (!isObject(schema)) refuse(place, "inputs", "it is not a JSON Schema object", "give an object schema");
  if (schema.type !== undefined && schema.type !== "object") refuse(place, "inputs", `it is of type ${JSON.stringify(schema.type)}, and a stepfile's inputs are an object`, "make the inputs an object schema");
  return { type: "object", ...schema };
}

function inlined(node: unknown, document: JsonObject, place: Place, seen: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => inlined(n, document, place, seen));
  if (!isObject(node)) return node;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (!ref.startsWith("#/components/")) {
      refuse(place, `inputs $ref ${ref}`, "only references to this document's components can be inlined", "move the schema into components.inputs");
    }
    if (seen.has(ref)) refuse(place, `inputs $ref ${ref}`, "it refers to itself, and an inlined schema cannot", "write the schema without a cycle");
    const target = resolvePointer(document, ref);
    if (target === undefined) refuse(place, `inputs $ref ${ref}`, "it leads nowhere in this document", "define the schema it names");
    const { $ref: _ref, ...siblings } = node;
    const resolved = inlined(target, document, place, new Set([...seen, ref]));
    return Object.keys(siblings).length === 0 || !isObject(resolved) ? resolved : { ...resolved, ...(inlined(siblings, document, place, seen) as JsonObject) };
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlined(v, document, place, seen)]));
}
