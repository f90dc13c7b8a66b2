// tools/list answered from bytes kept per catalog version, for both protocol
// eras, from inside the Hono chain: only routes/mcp.ts calls this, after
// every guard has passed the request (Host, Origin, token, body limit, JSON
// depth and parse), so a refusal has one source whatever the method.
//
// Why by hand: profiled under load (`node --cpu-prof`, 10 connections), a
// tools/list through the SDK spent its time in the SDK transport (zod
// validation of the message, a ReadableStream for the answer, in 2026-07-28
// a server built per request) and in re-encoding the same 8 KB of JSON for
// every request; the answer never changes until --watch reloads a stepfile.
// No library answers a JSON-RPC request from a cached byte string, so this
// does, for the one request shape it can prove is a plain tools/list the SDK
// would answer with these very bytes. Anything else goes to the SDK.
//
// - 2025-11-25: an initialized session, the SDK transport's Accept and
//   protocol version checks, `{"jsonrpc":"2.0","id":...,"method":"tools/list"}`
//   with empty or no params. The answer is the SDK's SSE framing around the
//   factory's tools/list JSON.
// - 2026-07-28: a request the SDK's own classifier (classifyInboundRequest,
//   run by the route) found modern and valid, with both standard headers,
//   params holding only the envelope's three keys. The answer is the SDK's
//   own: the first such request of each catalog version goes to the SDK and
//   its answer is kept around the id, once it is seen to end with that id.
//
// Both are written to node's ServerResponse in one write with no
// Content-Length, so Node frames them chunked as it does the SDK's streamed
// answers; test/http/tools-list-cache.test.ts compares the bytes on the
// wire with the SDK's for the same requests.
import type { ServerResponse } from "node:http";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, isJsonContentType, PROTOCOL_VERSION_META_KEY, type InboundClassificationOutcome } from "@modelcontextprotocol/server";
import { hasOnlyKeys, isObject, plainToolsListId, type JsonRpcId } from "../jsonrpc/shapes.js";
import { LEGACY_SESSION } from "./legacy-sessions.js";
import { watchBody } from "./release-on-end.js";
import type { SessionStore } from "./sessions.js";

/** The 2025 protocol version answered here: the one whose SSE framing this file writes. */
const LEGACY_VERSION = "2025-11-25";
/** The 2026 revision answered here. */
const MODERN_VERSION = "2026-07-28";
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
const META_ONLY: ReadonlySet<string> = new Set(["_meta"]);

/** The request headers this reads, by lower-case name. */
export type HeaderOf = (name: string) => string | undefined;

export interface ToolsListCacheOptions {
  sessions: SessionStore;
  /** The tools/list result as JSON, the same string until the catalog changes. */
  toolsListResult: () => string;
}

export interface ToolsListCache {
  /** Writes the answer to a plain tools/list of a live 2025 session and returns true, or returns false and writes nothing. */
  answerLegacy(header: HeaderOf, parsedBody: unknown, res: ServerResponse): boolean;
  /** The id of a 2026-07-28 request the SDK would answer with the kept bytes, else undefined. */
  modernId(header: HeaderOf, route: InboundClassificationOutcome): JsonRpcId | undefined;
  /**
   * Writes the kept 2026 answer with `id`, or, when none is kept for this
   * catalog version yet, returns `keep`: pass the SDK's answer to this
   * request through it, and send what it returns (the same answer, kept as
   * the client reads it).
   */
  answerModern(id: JsonRpcId, res: ServerResponse): { written: true } | { written: false; keep(response: Response): Response };
}

interface Framing {
  /** The result string the framing was built from: a new one means the catalog changed. */
  result: string;
  head: Buffer;
  tail: Buffer;
}

const SSE_HEADERS = [
  ["cache-control", "no-cache, no-transform"],
  ["connection", "keep-alive"],
  ["content-type", "text/event-stream"],
];
const JSON_HEADERS = ["content-type", "application/json"];

export function toolsListCache(options: ToolsListCacheOptions): ToolsListCache {
  let legacy: Framing | undefined;
  let modern: Framing | undefined;

  const legacyFraming = (): Framing => {
    const result = options.toolsListResult();
    if (legacy?.result !== result) {
      // The SDK's own framing: writeSSEEvent's `event: message` and `data:` lines,
      // and JSON.stringify of its response object, whose keys are result, jsonrpc, id.
      legacy = { result, head: Buffer.from(`event: message\ndata: {"result":${result},"jsonrpc":"2.0","id":`), tail: Buffer.from("}\n\n") };
    }
    return legacy;
  };

  function keepModern(result: string, id: JsonRpcId, response: Response): Response {
    if (response.status !== 200 || response.headers.get("content-type") !== "application/json") return response;
    const chunks: Uint8Array[] = [];
    return watchBody(response, {
      chunk: (value) => void chunks.push(value),
      end(whole) {
        if (!whole) return;
        const text = Buffer.concat(chunks).toString("utf8");
        const idJson = JSON.stringify(id);
        // Kept only when the answer is the result object followed by exactly this id, so the id is all that varies.
        if (!text.startsWith('{"result":') || !text.endsWith(`,"jsonrpc":"2.0","id":${idJson}}`)) return;
        if (result !== options.toolsListResult()) return;
        modern = { result, head: Buffer.from(text.slice(0, text.length - idJson.length - 1)), tail: Buffer.from("}") };
      },
    });
  }

  return {
    answerLegacy(header, parsedBody, res) {
      if (header("mcp-protocol-version") !== LEGACY_VERSION) return false;
      // The SDK transport's Content-Type and Accept checks for a POST, with its own predicate and as its Accept check is written.
      if (!isJsonContentType(header("content-type") ?? null)) return false;
      const accept = header("accept");
      if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
      const id = isObject(parsedBody) ? plainToolsListId(parsedBody) : undefined;
      if (id === undefined) return false;
      const sessionId = header("mcp-session-id");
      if (sessionId === undefined || options.sessions.touch(sessionId)?.kind !== LEGACY_SESSION) return false;
      const { head, tail } = legacyFraming();
      // Header names, values and order as the SDK's Response reaches the wire through @hono/node-server.
      res.writeHead(200, [...SSE_HEADERS, ["mcp-session-id", sessionId], ["x-accel-buffering", "no"]].flat());
      send(res, Buffer.concat([head, Buffer.from(JSON.stringify(id)), tail]));
      return true;
    },

    modernId(header, route) {
      if (route.kind !== "modern" || route.messageKind !== "request" || route.classification.revision !== MODERN_VERSION) return undefined;
      // The SDK's standard-header rung refuses a request without either header; leave that answer to it.
      if (header("mcp-protocol-version") === undefined || header("mcp-method") === undefined) return undefined;
      const message = route.message as unknown as Record<string, unknown>;
      const id = plainToolsListId({ ...message, params: undefined });
      const params = message.params;
      if (id === undefined || !isObject(params) || !hasOnlyKeys(params, META_ONLY)) return undefined;
      const meta = params._meta;
      return isObject(meta) && hasOnlyKeys(meta, ENVELOPE_KEYS) ? id : undefined;
    },

    answerModern(id, res) {
      // Read before the SDK answers: a --watch reload meanwhile makes its answer one of the old catalog.
      const result = options.toolsListResult();
      if (modern?.result !== result) return { written: false, keep: (response) => keepModern(result, id, response) };
      res.writeHead(200, JSON_HEADERS);
      send(res, Buffer.concat([modern.head, Buffer.from(JSON.stringify(id)), modern.tail]));
      return { written: true };
    },
  };
}

/** One write, then the end: without a Content-Length Node frames it chunked, as it does the SDK's streamed answers (end(bytes) alone would add one). */
function send(res: ServerResponse, bytes: Buffer): void {
  res.write(bytes);
  res.end();
}
