// JSON-RPC batches on stdio. The SDK's stdio transport reads one message per
// line and drops a line holding an array (it reports a parse error nobody
// hears), so a client that sent a batch would wait for ever. Here, between
// stdin and the transport, a batch line is taken out and answered by the
// rule of src/jsonrpc/batches.ts: on a session of 2025-03-26 or earlier its
// messages go on to the SDK one per line and the answers to its requests go
// back as one array, as JSON-RPC 2.0 section 6 answers a batch; on any other
// session (2025-06-18 and later, 2026-07-28, or none yet: initialize may not
// be batched) it is refused with -32600 and `id: null`.
//
// The session's revision is read from the opening line as it passes, so the
// decision follows the order of the lines, not how far the SDK got: a 2025
// initialize asking for a revision the SDK supports gets that revision, any
// other one the SDK's latest; any other opening is not a 2025 session.
import { Transform, type Readable, type Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { isObject, parseJsonObject, type JsonRpcId } from "../jsonrpc/shapes.js";
import { batchesAllowed, batchRefusal } from "../jsonrpc/batches.js";

const NEWLINE = 0x0a;
const OPEN_BRACKET = 0x5b;

export interface BatchTransport {
  send(message: JSONRPCMessage): Promise<void>;
}

export interface StdioBatches {
  /** What the SDK transport reads instead of stdin: every line but batches, and a served batch's messages one per line. */
  input: Readable;
  /** Wraps the transport's send, so the answers to a served batch's requests leave as one array line. */
  answerThrough(transport: BatchTransport): void;
}

export function stdioBatches(input: Readable, stdout: Writable, sdk: { supported: readonly string[]; latest: string }): StdioBatches {
  let opened = false;
  let protocolVersion: string | undefined;
  let partial: Buffer = Buffer.alloc(0);
  /** Each served batch's request ids not answered yet, and the answers so far. */
  const pending: Array<{ ids: Set<JsonRpcId>; answers: JSONRPCMessage[] }> = [];

  const answerThrough = (transport: BatchTransport) => {
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      const id = "id" in message && !("method" in message) ? (message.id as JsonRpcId) : undefined;
      const group = id === undefined ? undefined : pending.find((g) => g.ids.has(id));
      if (!group) return send(message);
      group.ids.delete(id!);
      group.answers.push(message);
      if (group.ids.size > 0) return Promise.resolve();
      pending.splice(pending.indexOf(group), 1);
      return write(`${JSON.stringify(group.answers)}\n`);
    };
  };
  const write = (text: string) => new Promise<void>((resolve) => (stdout.write(text) ? resolve() : stdout.once("drain", resolve)));

  /** The first message decides the session's revision; later lines are not read here unless they are batches. */
  const open = (line: Buffer) => {
    opened = true;
    const message = parseJsonObject(line.toString("utf8"));
    if (message?.method !== "initialize" || !isObject(message.params)) return;
    const requested = message.params.protocolVersion;
    if (typeof requested !== "string") return;
    protocolVersion = sdk.supported.includes(requested) ? requested : sdk.latest;
  };

  /** The messages of a batch line to pass on, one per line; or undefined when it is not a batch. */
  const batch = (line: Buffer): Buffer | undefined => {
    let messages: unknown;
    try {
      messages = JSON.parse(line.toString("utf8"));
    } catch {
      return undefined;
    }
    if (!Array.isArray(messages)) return undefined;
    if (!batchesAllowed(protocolVersion) || messages.length === 0) {
      // JSON-RPC 2.0 section 6: an empty array is itself an Invalid Request.
      const refusal = batchesAllowed(protocolVersion) ? JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: an empty batch" } }) : batchRefusal(protocolVersion, "line");
      void write(`${refusal}\n`);
      return Buffer.alloc(0);
    }
    const ids = new Set<JsonRpcId>();
    const answers: JSONRPCMessage[] = [];
    const passed: unknown[] = [];
    for (const m of messages) {
      if (!isObject(m) || m.jsonrpc !== "2.0") {
        // JSON-RPC 2.0 section 6: an element that is not a message gets its own Invalid Request in the answer (the SDK would drop it unanswered).
        answers.push({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: a batch element that is not a JSON-RPC 2.0 message" } } as unknown as JSONRPCMessage);
        continue;
      }
      passed.push(m);
      if (typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number")) ids.add(m.id);
    }
    if (ids.size > 0) pending.push({ ids, answers });
    else if (answers.length > 0) void write(`${JSON.stringify(answers)}\n`);
    return Buffer.from(passed.map((m) => `${JSON.stringify(m)}\n`).join(""));
  };

  /** Passes `chunk`'s complete lines on (the plain ones in one piece between batches); returns what follows the last newline. */
  const passLines = (chunk: Buffer, push: (b: Buffer) => void) => {
    let plainFrom = 0;
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      const lineStart = start;
      start = newline + 1;
      let first = lineStart;
      while (first < newline && (chunk[first] === 0x20 || chunk[first] === 0x09 || chunk[first] === 0x0d)) first += 1;
      if (first === newline) continue;
      const split = chunk[first] === OPEN_BRACKET ? batch(chunk.subarray(lineStart, start)) : undefined;
      if (!split) {
        if (!opened) open(chunk.subarray(lineStart, start));
        continue;
      }
      if (lineStart > plainFrom) push(chunk.subarray(plainFrom, lineStart));
      if (split.length > 0) push(split);
      plainFrom = start;
    }
    if (start > plainFrom) push(chunk.subarray(plainFrom, start));
    return chunk.subarray(start);
  };

  const filter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const data = partial.length === 0 ? chunk : Buffer.concat([partial, chunk]);
      // Lines that do not start with "[" pass on as they are; only what follows the last newline waits.
      partial = Buffer.from(passLines(data, (b) => this.push(b)));
      done();
    },
    flush(done) {
      if (partial.length > 0) this.push(partial);
      done();
    },
  });
  input.pipe(filter);
  input.once("error", (error) => filter.destroy(error));
  return { input: filter, answerThrough };
}
