// Chooses the one media type a request body is sent as. JSON is preferred
// (an object schema lets the client's arguments be checked); text/* and
// message/* bodies are a plain string. Others (forms, multipart, binary)
// are not sent: an optional body of those types is left out of the operation,
// a required one makes the operation unusable.
import { ApiDocumentInvalid } from "../errors.js";
import { isObject, mediaKind, type JsonObject } from "./json-pointer.js";

export interface BodySpec {
  /** The media type sent as Content-Type. */
  contentType: string;
  kind: "json" | "text";
  required: boolean;
}

export interface ChosenBody extends BodySpec {
  /** The media type's schema (JSON) or `{ type: "string" }` (text). */
  schema: unknown;
  description?: string;
}

export function chooseRequestBody(operation: JsonObject, operationId: string): ChosenBody | undefined {
  const body = operation.requestBody;
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const required = body.required === true;
  const description = typeof body.description === "string" ? body.description : undefined;
  const types = Object.keys(body.content);
  const json = types.find((type) => mediaKind(type) === "json");
  const text = types.find((type) => mediaKind(type) === "text");
  if (json !== undefined) {
    const media = body.content[json];
    const schema = isObject(media) && media.schema !== undefined ? media.schema : {};
    return { contentType: json, kind: "json", required, schema, ...(description ? { description } : {}) };
  }
  if (text !== undefined) {
    return { contentType: concreteTextType(text), kind: "text", required, schema: { type: "string" }, ...(description ? { description } : {}) };
  }
  if (required && types.length > 0) {
    throw new ApiDocumentInvalid(
      `operation ${operationId} requires a request body of ${types.join(", ")}; only application/json (or +json), text/* and message/* bodies can be sent`,
      { operation: operationId, mediaTypes: types },
    );
  }
  return undefined;
}


/** `text/*` names a family, not a Content-Type that can be sent. */
function concreteTextType(mediaType: string): string {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  if (essence === "text/*") return "text/plain";
  if (essence === "message/*") return "message/rfc822";
  return mediaType;
}
