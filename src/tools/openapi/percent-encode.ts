// Percent-encodes everything outside RFC 3986's unreserved set. Stricter than
// encodeURIComponent (which keeps ! ' ( ) *) so that no argument byte can
// carry meaning in a URL: not `/`, `\`, `?`, `#`, `@`, `:`, `%`, nor a
// delimiter Stepgate itself uses between array items.

export function encodeStrict(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw new URIError("a value holds a lone UTF-16 surrogate, which has no UTF-8 form");
  }
  return encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
