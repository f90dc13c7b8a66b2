// Building a request URL from a tool's server and an operation's path, so
// that no argument can change the host or the shape of the path.

/**
 * Percent-encodes everything outside RFC 3986 unreserved characters, so `/`,
 * `?`, `#`, `@`, `%` and `:` inside a value stay inside one segment. `.` and
 * `..` are refused: a URL parser treats them (even as `%2E%2E`) as "this" or
 * "parent" segment, so no encoding keeps them one segment.
 */
export function encodePathParam(value: string): string {
  if (value === "." || value === "..") throw new TypeError(`a path parameter cannot be "${value}"`);
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw new TypeError("a path parameter must be well-formed Unicode");
  }
  // encodeURIComponent leaves these sub-delims alone; they are not unreserved.
  return encoded.replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;

/**
 * Joins `server` (which may carry a path prefix, like `https://h/api/v3`) and
 * an OpenAPI path template (`/items/{id}`), filling `{name}` from
 * `pathParams` and appending `query` (arrays repeat the name; undefined is
 * left out). Throws when the result would leave the server's origin or path
 * prefix, which encoding should already make impossible.
 */
export function buildUrl(server: string, pathTemplate: string, pathParams: Record<string, string | number | boolean> = {}, query: Record<string, QueryValue> = {}): string {
  const base = new URL(server);
  const prefix = base.pathname.replace(/\/+$/, "");
  const path = pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = pathParams[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} has no value`);
    return encodePathParam(String(value));
  });
  const url = new URL(`${base.origin}${prefix}${path.startsWith("/") ? "" : "/"}${path}${base.search}`);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  if (url.origin !== base.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
    throw new TypeError(`${pathTemplate} does not stay under ${server}`);
  }
  return url.href;
}
