// Turns one argument into the text OpenAPI's `style`/`explode` rules give it.
// Every piece an argument supplies is percent-encoded (headers excepted); the
// delimiters between pieces are Stepgate's own, so they stay literal.
import { encodeStrict } from "./percent-encode.js";
import type { ParamSpec } from "./types.js";

/** Thrown for an argument that cannot be sent as its parameter says. */
export class ArgumentRefused extends Error {
  override readonly name = "ArgumentRefused";
}

type Encode = (text: string) => string;
const keepAsIs: Encode = (text) => text;

function scalar(param: ParamSpec, value: unknown): string {
  if (param.contentType) return JSON.stringify(value);
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new ArgumentRefused(`${param.in} parameter ${param.name} cannot hold nested arrays or objects`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The items of an array, or `[k, v, k, v]` of an object; each encoded. */
function pieces(param: ParamSpec, value: unknown[] | Record<string, unknown>, encode: Encode): string[] {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(param, item)));
  return Object.entries(value).flatMap(([key, item]) => [encode(key), encode(scalar(param, item))]);
}

/** `k=v` pairs of an object, joined by `separator`. */
function pairs(param: ParamSpec, value: Record<string, unknown>, encode: Encode, separator: string): string {
  return Object.entries(value)
    .map(([key, item]) => `${encode(key)}=${encode(scalar(param, item))}`)
    .join(separator);
}

/** Simple style: path and header values. */
function simple(param: ParamSpec, value: unknown, encode: Encode): string {
  if (param.contentType || (!Array.isArray(value) && !isPlainObject(value))) return encode(scalar(param, value));
  if (isPlainObject(value) && param.explode) return pairs(param, value, encode, ",");
  return pieces(param, value, encode).join(",");
}

/** The path segment text for a path parameter (already encoded), in simple, label or matrix style. */
export function serialisePath(param: ParamSpec, value: unknown): string {
  if (param.style === "simple") return simple(param, value, encodeStrict);
  const name = encodeStrict(param.name);
  const label = param.style === "label";
  if (isPlainObject(value) && !param.contentType) {
    if (param.explode) return label ? `.${pairs(param, value, encodeStrict, ".")}` : `;${pairs(param, value, encodeStrict, ";")}`;
    return label ? `.${pieces(param, value, encodeStrict).join(",")}` : `;${name}=${pieces(param, value, encodeStrict).join(",")}`;
  }
  const items = Array.isArray(value) && !param.contentType ? pieces(param, value, encodeStrict) : [encodeStrict(scalar(param, value))];
  if (label) return `.${items.join(param.explode ? "." : ",")}`;
  return param.explode ? items.map((item) => `;${name}=${item}`).join("") : `;${name}=${items.join(",")}`;
}

/** The header value for a header parameter. */
export function serialiseHeader(param: ParamSpec, value: unknown): string {
  const text = simple(param, value, keepAsIs);
  // Header values are bytes on one line: a CR or LF would start a new header.
  if (/[\0\r\n]/.test(text) || /[^\t\x20-\xff]/.test(text)) {
    throw new ArgumentRefused(`header parameter ${param.name} holds a line break, a control character or a character outside Latin-1`);
  }
  return text;
}

/**
 * Encoded `name=value` pairs for a query or cookie parameter; an exploded
 * object's own pairs are joined by `separator` (`&` in a query, `; ` in a cookie).
 */
export function serialiseForm(param: ParamSpec, value: unknown, separator = "&"): string[] {
  const name = encodeStrict(param.name);
  if (param.contentType || (!Array.isArray(value) && !isPlainObject(value))) return [`${name}=${encodeStrict(scalar(param, value))}`];
  if (Array.isArray(value) && param.style === "deepObject") {
    throw new ArgumentRefused(`query parameter ${param.name} (style deepObject) must be an object`);
  }
  if (isPlainObject(value) && param.style === "deepObject") {
    return Object.entries(value).map(([key, item]) => `${name}%5B${encodeStrict(key)}%5D=${encodeStrict(scalar(param, item))}`);
  }
  if (param.style === "form" && param.explode) {
    return Array.isArray(value) ? pieces(param, value, encodeStrict).map((item) => `${name}=${item}`) : [pairs(param, value, encodeStrict, separator)];
  }
  // Non-exploded form, spaceDelimited and pipeDelimited: one field, items (or keys and values) joined.
  const delimiter = param.style === "spaceDelimited" ? "%20" : param.style === "pipeDelimited" ? "|" : ",";
  return [`${name}=${pieces(param, value, encodeStrict).join(delimiter)}`];
}
