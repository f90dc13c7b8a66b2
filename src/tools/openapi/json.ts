// Small guards for walking parsed documents, whose shape is never trusted
// (shared with the loader, so they live in src/format).
export { isObject, resolvePointer, unescapePointerToken, type JsonObject } from "../../format/json-pointer.js";
