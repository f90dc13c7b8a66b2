// The Accept header an operation sends: the media types its success
// responses declare, JSON first, so an API that can answer in JSON or XML
// answers in JSON (which gates can read).
import { isObject, type JsonObject } from "./json.js";
import { mediaKind } from "../../format/json-pointer.js";

/** Sent when the document declares no response media type. */
export const DEFAULT_ACCEPT = "application/json, */*;q=0.5";

export function acceptHeader(operation: JsonObject): string {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const success = Object.keys(responses).filter((code) => /^2(\d\d|XX)$/i.test(code));
  const codes = success.length > 0 ? success : Object.keys(responses).filter((code) => code === "default");
  const types: string[] = [];
  for (const code of codes) {
    const response = responses[code];
    if (!isObject(response) || !isObject(response.content)) continue;
    for (const type of Object.keys(response.content)) if (!types.includes(type)) types.push(type);
  }
  if (types.length === 0) return DEFAULT_ACCEPT;
  const json = types.filter((type) => mediaKind(type) === "json");
  return [...json, ...types.filter((type) => !json.includes(type))].join(", ");
}
