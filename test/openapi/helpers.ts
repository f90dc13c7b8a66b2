// Builders for small OpenAPI documents, so each test shows only what it is about.
import { buildOperations, dereference, type OperationSpec } from "../../src/tools/openapi/index.js";

export type Doc = Record<string, unknown>;

/** An OpenAPI 3.1 document with the given paths and extra top-level fields. */
export function doc(paths: Doc, extra: Doc = {}): Doc {
  return { openapi: "3.1.0", info: { title: "Test", version: "1" }, paths, ...extra };
}

/** Dereferences `document` and builds the one operation `id`. */
export async function operation(document: Doc, id: string): Promise<OperationSpec> {
  const spec = buildOperations(await dereference(document), [id]).get(id);
  if (!spec) throw new Error(`no operation ${id}`);
  return spec;
}

/** A GET /items/{id} style operation with the given parameters. */
export function withParams(parameters: unknown[], path = "/items"): Doc {
  return doc({ [path]: { get: { operationId: "op", parameters } } });
}

/** A POST /items operation whose request body has the given content. */
export function withBody(content: Doc, required = true): Doc {
  return doc({ "/items": { post: { operationId: "op", requestBody: { required, content } } } });
}

/** The operation of `withParams(parameters, path)`, built. */
export function opWith(parameters: unknown[], path?: string): Promise<OperationSpec> {
  return operation(withParams(parameters, path), "op");
}
