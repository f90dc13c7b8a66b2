// The 4 MiB cap must hold for every content type and for chunked bodies: the
// MCP SDK's own limit covers only application/json, so a text/plain or
// chunked body would otherwise be buffered whole.
//
// Written by hand rather than with hono's bodyLimit because of what a client
// sees: hono's version stops reading at the first byte over the cap and
// cancels the stream, so the connection is torn down while the client is
// still uploading, and a busy client reads a reset instead of the 413. Here
// the rest of an oversized body is read and thrown away (up to a bound), so
// the client finishes sending and then reads the 413.
//
// Under @hono/node-server the body is read straight from node's
// IncomingMessage and handed on as its `rawBody`, which the adaptor's Request
// reads without building a web stream. Profiled (`node --cpu-prof`), the web
// path (a ReadableStream for the body, a second Request to hold what was
// read) was the largest cost of a small request through the guards.
import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import { jsonRpcError, JsonRpcCode } from "./json-rpc-error.js";

export interface BodyLimitOptions {
  /** Largest accepted body in bytes; default 4 MiB. */
  maxBytes?: number;
  /** How much of an oversized body is drained before giving up on the connection; default 16 × maxBytes. */
  drainBytes?: number;
  /** How long draining may take; default 5 s. */
  drainMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The client went away before its request body was whole: there is nobody to answer. */
export class ClientClosed extends Error {
  override name = "ClientClosed";
}

/** What reading a body came to: the bytes, or over the cap (and whether the rest was drained). */
type Read = { over: false; body: Buffer | Uint8Array } | { over: true; drained: boolean };

interface Limits {
  maxBytes: number;
  drainBytes: number;
  drainMs: number;
}

/** Node request objects as @hono/node-server hands them to the app (`c.env.incoming`). */
type NodeIncoming = IncomingMessage & { rawBody?: Buffer };

/**
 * Refuses (413) any request body larger than `maxBytes`, whatever its content type or framing.
 * A body within the limit is read once and handed on unchanged.
 *
 * @example
 * app.use("/mcp", bodyLimit({ maxBytes: 4 * 1024 * 1024 }));
 */
export function bodyLimit(options: BodyLimitOptions = {}): MiddlewareHandler {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limits: Limits = { maxBytes, drainBytes: options.drainBytes ?? 16 * maxBytes, drainMs: options.drainMs ?? 5_000 };
  return async function bodyLimit(c, next) {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const declared = Number(c.req.header("content-length"));
    const declaredOver = Number.isFinite(declared) && declared > maxBytes;
    const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
    let read: Read;
    if (incoming && !incoming.readableDidRead && incoming.rawBody === undefined) {
      read = await readIncoming(incoming, declaredOver, limits);
      // The adaptor's Request reads rawBody when the body is asked for.
      if (!read.over) incoming.rawBody = read.body as Buffer;
    } else {
      const body = c.req.raw.body;
      if (body === null) return next();
      read = await readStream(body, declaredOver, limits);
      if (!read.over) c.req.raw = new Request(c.req.raw, { body: read.body });
    }
    if (!read.over) return next();
    // Too much to drain: reading stopped, and this connection cannot carry another request.
    if (!read.drained) c.header("connection", "close");
    return jsonRpcError(c, 413, JsonRpcCode.Refused, `Payload Too Large: the body exceeds ${maxBytes} bytes`);
  };
}

/** Counts bytes as they come: keeps them while within the cap, drains past it until the bound or the deadline. */
class Tally {
  readonly kept: Uint8Array[] = [];
  size = 0;
  readonly #deadline: number;
  constructor(
    public over: boolean,
    private readonly limits: Limits,
  ) {
    this.#deadline = Date.now() + limits.drainMs;
  }

  /** Takes one chunk; false when reading must stop (too much, or too long, to drain). */
  add(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength;
    if (this.size > this.limits.maxBytes) this.over = true;
    if (!this.over) {
      this.kept.push(chunk);
      return true;
    }
    return this.size <= this.limits.maxBytes + this.limits.drainBytes && Date.now() <= this.#deadline;
  }

  result(drained: boolean): Read {
    if (this.over) return { over: true, drained };
    return { over: false, body: this.kept.length === 1 ? this.kept[0]! : Buffer.concat(this.kept, this.size) };
  }
}

function readIncoming(incoming: NodeIncoming, declaredOver: boolean, limits: Limits): Promise<Read> | Read {
  const tally = new Tally(declaredOver, limits);
  // Usually the whole body came with the headers and node has parsed it all
  // already: take it from the stream's buffer now, without waiting for events.
  if (incoming.complete && !declaredOver) {
    for (let chunk: Buffer | null; (chunk = incoming.read() as Buffer | null) !== null; ) tally.add(chunk);
    if (!tally.over) return tally.result(true);
    // Over the cap after all: what is left was buffered, so the events below see the end at once.
  }
  return new Promise((resolve, reject) => {
    const done = () => {
      incoming.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
    };
    const onData = (chunk: Buffer) => {
      if (tally.add(chunk)) return;
      done();
      // Stop reading: the rest stays unread, and the 413 goes out with `connection: close`.
      incoming.pause();
      resolve(tally.result(false));
    };
    const onEnd = () => {
      done();
      resolve(tally.result(true));
    };
    const onGone = () => {
      done();
      reject(new ClientClosed("the client closed the connection before its request body ended"));
    };
    incoming.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
  });
}

async function readStream(body: ReadableStream<Uint8Array>, declaredOver: boolean, limits: Limits): Promise<Read> {
  const tally = new Tally(declaredOver, limits);
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return tally.result(true);
    if (!tally.add(value)) {
      await reader.cancel().catch(() => undefined);
      return tally.result(false);
    }
  }
}
