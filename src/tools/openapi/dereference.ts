// Inlines a document's internal `$ref`s so every schema can be read in place.
// Only `#/...` pointers into the document itself are followed: a stepfile is
// pinned by its own bytes (and a fetched document by its digest), so nothing
// else may be pulled in behind them.
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { ApiDocumentInvalid } from "../../errors.js";
import { isObject, type JsonObject } from "./json.js";
import { openApiVersion } from "./openapi-version.js";
import { upgradeSchemas } from "./schema-upgrade.js";

/** Real documents dereference in well under a second. */
export const DEREFERENCE_TIMEOUT_MS = 5_000;

export interface DereferenceOptions {
  /** Longest time spent inlining refs (default DEREFERENCE_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * Returns a dereferenced copy of an OpenAPI 3.x document (the input is not
 * changed). A circular `$ref` is left in place as `{ "$ref": "#/..." }`, so the
 * result has no cycles and serialises as JSON; `buildOperations` later moves
 * each such target into the input schema's `$defs`. Schemas are rewritten
 * into JSON Schema 2020-12 (3.0's `nullable`, boolean exclusive bounds).
 *
 * @example
 * const doc = await dereference(yaml.parse(text));
 * const operations = buildOperations(doc, ["getItem"]);
 */
export async function dereference(document: unknown, options: DereferenceOptions = {}): Promise<JsonObject> {
  const timeoutMs = options.timeoutMs ?? DEREFERENCE_TIMEOUT_MS;
  openApiVersion(document);
  refuseForeignRefs(document, "#");
  let result: JsonObject;
  try {
    result = (await $RefParser.dereference(document as JsonObject, {
      resolve: { external: false },
      dereference: { circular: "ignore" },
      mutateInputSchema: false,
      // Refs to shared schemas are walked once per path to them, so a small
      // hostile document can take exponential time: bound it.
      timeoutMs,
    })) as JsonObject;
  } catch (error) {
    throw describeRefError(error, timeoutMs);
  }
  upgradeSchemas(result);
  return result;
}

/** External files, URLs and `#anchor` refs cannot be inlined; say which one. */
function refuseForeignRefs(node: unknown, path: string): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => refuseForeignRefs(item, `${path}/${index}`));
    return;
  }
  if (!isObject(node)) return;
  if (typeof node.$ref === "string" && node.$ref !== "#" && !node.$ref.startsWith("#/")) {
    throw new ApiDocumentInvalid(`$ref "${node.$ref}" at ${path} cannot be inlined: only refs inside the document (#/...) are allowed`, {
      ref: node.$ref,
      at: path,
    });
  }
  for (const [key, value] of Object.entries(node)) refuseForeignRefs(value, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
}

function describeRefError(error: unknown, timeoutMs: number): Error {
  if (error instanceof ApiDocumentInvalid) return error;
  if (error instanceof Error && error.name === "MissingPointerError") {
    const ref = /"([^"]*)"/.exec(error.message)?.[1] ?? "";
    return new ApiDocumentInvalid(`$ref "${ref}" points at nothing in the document`, { ref });
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return new ApiDocumentInvalid(`its $refs took longer than ${timeoutMs} ms to inline`, { reason: "timeout" });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiDocumentInvalid(`its $refs could not be inlined: ${reason}`, { reason });
}
