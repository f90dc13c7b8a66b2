// Gets the OpenAPI document of a stepfile tool: inline as written, or fetched
// from its `url` and checked against the pinned digest before it is parsed,
// so a changed document never gets as far as being read.
import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { ApiDocumentInvalid } from "../../errors.js";
import { flowTooDeep, MAX_DEPTH } from "../../format/nesting.js";
import { dereference } from "./dereference.js";
import { isObject, type JsonObject } from "./json.js";
import { openApiVersion } from "./openapi-version.js";
import { buildOperations, type BuildOptions } from "./operations.js";
import type { FetchBytes, OpenApiToolSpec, OperationSpec } from "./types.js";

/**
 * The tool's raw document. `fetchBytes` is egress's document fetch (no
 * credential); it is called only for a `url` document.
 *
 * @example
 * const doc = await loadDocument({ server, url, sha256 }, egress.fetchDocument);
 */
export async function loadDocument(spec: OpenApiToolSpec, fetchBytes: FetchBytes): Promise<JsonObject> {
  if ("document" in spec) {
    openApiVersion(spec.document);
    return spec.document;
  }
  const bytes = await fetchBytes(spec.url);
  const actual = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const expected = spec.sha256.toLowerCase();
  if (actual !== expected) {
    throw new ApiDocumentInvalid(`the document at ${spec.url} has digest ${actual}, but the stepfile pins ${spec.sha256}`, {
      url: spec.url,
      expected: spec.sha256,
      actual,
    });
  }
  const document = parseDocument(bytes, spec.url);
  openApiVersion(document);
  return document;
}

/** Loads, dereferences and builds a tool's exposed operations in one go. */
export async function loadOperations(
  spec: OpenApiToolSpec,
  exposes: readonly string[],
  fetchBytes: FetchBytes,
  options?: BuildOptions,
): Promise<Map<string, OperationSpec>> {
  return buildOperations(await dereference(await loadDocument(spec, fetchBytes)), exposes, options);
}

/** JSON when it looks like JSON, YAML otherwise (YAML 1.2 reads JSON too, but more slowly and more loosely). */
export function parseDocument(bytes: Uint8Array, url: string): JsonObject {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new ApiDocumentInvalid(`the document at ${url} is not UTF-8`, { url });
  }
  // Before either parser: deep flow nesting aborts the process inside `yaml` (src/format/nesting.ts).
  const deep = flowTooDeep(text, MAX_DEPTH);
  if (deep) throw new ApiDocumentInvalid(`the document at ${url} nests deeper than ${MAX_DEPTH} levels (line ${deep.line}, column ${deep.column})`, { url, reason: "too deep" });
  let value: unknown;
  try {
    value = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true, logLevel: "error" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiDocumentInvalid(`the document at ${url} is neither JSON nor YAML: ${reason}`, { url, reason });
  }
  if (!isObject(value)) throw new ApiDocumentInvalid(`the document at ${url} is not an object`, { url });
  return value;
}
