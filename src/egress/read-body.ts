// Reads a response body under the byte cap. The deadline's signal, passed to
// undici with the request, makes this loop throw when time runs out, so a
// slow-drip or endless body cannot hold a run.
import type { Readable } from "node:stream";
import { ResponseTooLarge } from "../errors.js";

export async function readCapped(body: Readable, contentLength: string | undefined, maxBytes: number, what: string): Promise<Uint8Array> {
  // A declared length over the cap is refused before a byte is read.
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    discardBody(body);
    throw new ResponseTooLarge(what, maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      discardBody(body);
      throw new ResponseTooLarge(what, maxBytes);
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/** Closes a body nobody will read; the error a destroyed undici body emits is expected, not a crash. */
export function discardBody(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** Body text for ToolCallFailed: decoded and cut, so one error cannot flood the client. */
export const ERROR_BODY_CHARS = 2000;

export function errorBodyText(body: Uint8Array): string {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  return text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}[truncated]` : text;
}
