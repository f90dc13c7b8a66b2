// A step's `Content-Type` header parameter. Stepgate sets Content-Type
// itself, to the media type the OpenAPI tool sends the body as (chosen by
// src/format/openapi-request-body.ts, set by src/tools/openapi/build-request.ts),
// so no argument can change it. A parameter saying that same type describes
// what is sent anyway, and leaving it out keeps the workflow's meaning; one
// saying anything else describes a request Stepgate would not send.
import type { ArazzoParameter } from "./arguments.js";
import type { Scope } from "./expressions.js";
import { refuse } from "./refusals.js";

export function isContentTypeParameter(p: ArazzoParameter): boolean {
  return p.in === "header" && p.name.toLowerCase() === "content-type";
}

/** Returns when the parameter says what is sent (so it is left out); refuses it otherwise. `sent` is the body's media type, undefined when the operation takes no JSON or text body. */
export function checkContentType(p: ArazzoParameter, sent: string | undefined, operationId: string, scope: Scope): void {
  const construct = `parameter ${p.name} (in header)`;
  const value = p.value;
  if (sent === undefined) {
    refuse(scope, construct, `Stepgate sets the ${p.name} header itself, and operation ${operationId} takes no JSON or text body for it to describe`, "drop the parameter");
  }
  if (typeof value !== "string" || value.includes("$")) {
    refuse(scope, construct, `Stepgate sets the ${p.name} header itself, to ${sent}, and this value is known only at run time`, `drop the parameter, or write ${sent}`);
  }
  if (normalised(value) !== normalised(sent)) {
    refuse(scope, construct, `Stepgate sends the body as ${sent}, the media type operation ${operationId} declares, and this parameter says ${value}`, `drop the parameter, or declare ${value} as the operation's request body content (only JSON and text bodies can be sent)`);
  }
}

/** Case and spaces do not matter in a media type (RFC 9110, 8.3.1), and the body is always sent as UTF-8, so `charset=utf-8` says nothing more. */
function normalised(mediaType: string): string {
  return mediaType
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/;charset="?utf-8"?/, "");
}
