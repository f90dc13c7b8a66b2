// Content codings (RFC 9110 section 8.4). Some APIs compress whether or not
// the request asked, so every answer that names gzip, deflate or br is
// decoded here, streaming, before anything reads, scrubs, hashes or gates
// it. --response-bytes holds for both sides: the bytes that crossed the wire
// and the bytes they inflate to, so a small bomb stops as soon as it passes
// the cap. undici's request() does not decode (only its fetch does, without
// a cap), hence this file.
import { type Readable, Transform, type TransformCallback } from "node:stream";
import { constants, createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { ResponseTooLarge, ToolCallFailed } from "../errors.js";
import { quote } from "../quote.js";
import { discardBody } from "./read-body.js";

/** What egress sends on every hop: the codings it can decode. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** "deflate" is the zlib format (RFC 9110 8.4.1.2); a raw deflate stream is reported broken. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(),
  "x-gzip": () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress({ params: { [constants.BROTLI_DECODER_PARAM_LARGE_WINDOW]: 0 } }),
};

/** Statuses and methods whose answer has no body, whatever its headers say. */
const NO_BODY_STATUSES = new Set([204, 304]);

export interface Decoded {
  body: Readable;
  /** The answer's headers as the reader should see them: without the codings it no longer has. */
  headers: Record<string, string>;
}

export interface DecodeContext {
  operation: string;
  method: string;
  status: number;
  maxBytes: number;
}

/**
 * Returns the body decoded and capped. An unknown coding is refused before a
 * byte is read; a broken one fails the stream with ToolCallFailed (not a
 * network error, so it is not retried: the same bytes would come again).
 * With no coding (or only `identity`) the body is returned as it is.
 */
export function decodeBody(body: Readable, headers: Record<string, string>, ctx: DecodeContext): Decoded {
  const codings = (headers["content-encoding"] ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0 || ctx.method === "HEAD" || NO_BODY_STATUSES.has(ctx.status)) return { body, headers };
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown !== undefined) {
    discardBody(body);
    throw new ToolCallFailed(ctx.operation, ctx.status, "", `the response uses content-encoding ${quote(unknown)}, which Stepgate cannot decode (it accepts ${ACCEPT_ENCODING})`);
  }
  const { "content-encoding": _coding, "content-length": _length, ...rest } = headers;
  return { body: decodeChain(body, codings, ctx), headers: rest };
}

/**
 * Wires body -> encoded-byte counter -> decoders (last coding applied is
 * undone first) -> decoded-byte counter by hand rather than with
 * stream.pipeline: pipeline would hand the reader zlib's own error, and the
 * reader must tell a broken coding (ToolCallFailed) from a dropped
 * connection (a network error, which a retry may cure).
 */
function decodeChain(body: Readable, codings: string[], ctx: DecodeContext): Readable {
  const encoded = capCounter(ctx);
  const decoders = [...codings].reverse().map((c) => ({ coding: c, stream: DECODERS[c]!() }));
  const out = capCounter(ctx);
  const stages: Array<Readable | Transform> = [body, encoded, ...decoders.map((d) => d.stream), out];
  const stopAll = () => {
    for (const stage of stages.slice(0, -1)) {
      if (stage.destroyed) continue;
      stage.on("error", () => undefined);
      stage.destroy();
    }
  };
  const fail = (error: Error) => {
    stopAll();
    out.destroy(error);
  };
  body.on("error", fail);
  encoded.on("error", fail);
  for (const { coding, stream } of decoders) {
    stream.on("error", (error: Error) => {
      // An empty body with a coding header (some servers send one on a 201 or a redirect) is just empty.
      if (encoded.counted() === 0) {
        stopAll();
        out.end();
        return;
      }
      fail(new ToolCallFailed(ctx.operation, ctx.status, "", `the response's ${coding} encoding is broken (${error.message})`));
    });
  }
  for (let i = 0; i < stages.length - 1; i++) stages[i]!.pipe(stages[i + 1] as Transform);
  // The reader giving up (cap, deadline, cancel) frees the socket and the decoders.
  out.on("close", stopAll);
  return out;
}

/** A pass-through that fails with ResponseTooLarge once more than maxBytes went through it. */
function capCounter(ctx: DecodeContext): Transform & { counted(): number } {
  let total = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      total += chunk.length;
      if (total > ctx.maxBytes) done(new ResponseTooLarge(ctx.operation, ctx.maxBytes));
      else done(null, chunk);
    },
  });
  return Object.assign(counter, { counted: () => total });
}
