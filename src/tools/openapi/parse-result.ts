// Reads an operation's response into what gates see (`result`) and what the
// client is shown (`text`).
import { mediaKind } from "../../format/json-pointer.js";

export interface ParsedResult {
  /** Parsed JSON for a JSON response, otherwise the body as text. */
  result: unknown;
  /** Compact JSON or the body text; for an error, `HTTP <status>: <body>`. */
  text: string;
  isError: boolean;
}

/**
 * A body is parsed as JSON when its Content-Type says JSON, or when there is
 * no Content-Type and it parses; a JSON type that fails to parse stays text.
 * JSON is shown compact, so the client sees the same text whatever the
 * server's spacing.
 */
export function parseResult(status: number, contentType: string | null | undefined, bodyBytes: Uint8Array): ParsedResult {
  const raw = decode(bodyBytes, contentType);
  const wantsJson = contentType ? mediaKind(contentType) === "json" : raw.trim() !== "";
  let result: unknown = raw;
  let shown = raw;
  if (wantsJson) {
    try {
      result = JSON.parse(raw);
      shown = JSON.stringify(result);
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  const isError = status >= 400;
  return { result, text: isError ? errorText(status, shown) : shown, isError };
}

/** The text of an error result. */
export function errorText(status: number, body: string): string {
  return body === "" ? `HTTP ${status}` : `HTTP ${status}: ${body}`;
}

function decode(bytes: Uint8Array, contentType: string | null | undefined): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 is the best remaining guess.
    return new TextDecoder("utf-8").decode(bytes);
  }
}
