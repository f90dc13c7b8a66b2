// Which OpenAPI documents Stepgate accepts: 3.x only. Swagger 2.0 describes
// bodies and security differently enough that guessing would send wrong requests.
import { ApiDocumentInvalid } from "../../errors.js";
import { isObject, type JsonObject } from "./json.js";

export type OpenApiVersion = "3.0" | "3.1+";

/** Checks the document's top level and says which schema dialect it uses. */
export function openApiVersion(document: unknown): OpenApiVersion {
  if (!isObject(document)) throw new ApiDocumentInvalid("the document is not an object");
  if ("swagger" in document) {
    throw new ApiDocumentInvalid(`only OpenAPI 3.x is supported, this is Swagger ${String(document.swagger)}`, {
      swagger: String(document.swagger),
    });
  }
  const version = document.openapi;
  if (typeof version !== "string") throw new ApiDocumentInvalid('the document has no "openapi" version string (only OpenAPI 3.x is supported)');
  const match = /^3\.(\d+)(\.\d+)?(-.*)?$/.exec(version);
  if (!match) throw new ApiDocumentInvalid(`only OpenAPI 3.x is supported, this is ${version}`, { openapi: version });
  if (!isObject(document.paths)) throw new ApiDocumentInvalid('the document has no "paths" object');
  return match[1] === "0" ? "3.0" : "3.1+";
}

export function asDocument(document: unknown): JsonObject {
  openApiVersion(document);
  return document as JsonObject;
}
