// Small guards for walking parsed documents, whose shape is never trusted,
// and RFC 6901 pointers inside them. Here in the format layer because both
// the OpenAPI tools and the loader's response-schema warnings read documents.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Decodes one JSON Pointer token (RFC 6901). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Resolves a `#/a/b` fragment pointer inside `root`; undefined when it leads nowhere. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = unescapePointerToken(decodeURIComponent(raw));
    } catch {
      return undefined; // a malformed %-escape leads nowhere
    }
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token)) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** json for application/json and any +json type, text for text/* and message/*. */
export function mediaKind(mediaType: string): "json" | "text" | undefined {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  if (essence === "application/json" || /^application\/[^/*]+\+json$/.test(essence)) return "json";
  if (/^(text|message)\/[^/]+$/.test(essence)) return "text";
  return undefined;
}
