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

/**
 * Makes a path template's own text safe to put in a URL: characters a path
 * may not hold (`?`, `#`, spaces, non-ASCII) and stray `%` are encoded, so a
 * document path such as `/cookies#form` names a path, not a fragment.
 */
export function encodePathLiteral(text: string): string {
  return text.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeStrict(c));
}
