// tools/list in an initialized 2025-11-25 session, answered straight from
// node:http with bytes serialized once per catalog version.
//
// Why by hand: profiled under load (`node --cpu-prof`, 10 connections), a
// tools/list through Hono and the SDK spent its time turning the request
// into a web Request, running the SDK transport (zod validation of the
// message, a ReadableStream for the SSE answer) and re-encoding the same
// 8 KB of JSON to UTF-8 for every request; the answer itself never changes
// until --watch reloads a stepfile. No library answers a JSON-RPC request
// from a cached byte string, so this does, for the one request shape it can
// prove is a plain tools/list and nothing else.
//
// The contract: a request is answered here only if every guard on the
// normal path would let it through (the same predicates: Host, Origin,
// content type, body size, JSON depth, the session store's lookup) and the
// SDK would answer it with the bytes written here (its Accept and protocol
// version checks pass, the message is `{"jsonrpc":"2.0","id":...,
// "method":"tools/list"}` with empty or no params). Anything else, including
// every request that would be refused, takes the normal path unchanged, so
// every refusal keeps its one source. test/http/fast-tools-list.test.ts
// compares this path's bytes with the SDK's for the same request.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isJsonContentType } from "@modelcontextprotocol/server";
import { isJsonMediaType } from "../../middleware/json-body.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../middleware/json-depth.js";
import { isLoopbackHost } from "../../middleware/loopback-host.js";
import { isLoopbackOrigin } from "../../middleware/loopback-origin.js";
import { LEGACY_SESSION } from "./legacy-sessions.js";
import type { SessionStore } from "./sessions.js";
import { parseJsonObject, plainToolsListId } from "../jsonrpc-shapes.js";

/** The only protocol version served here: the one whose answer framing (SSE) this file writes. */
const VERSION = "2025-11-25";
/** A tools/list body is tens of bytes; anything larger is left to the normal path, unread. */
const MAX_FAST_BODY = 4096;

export interface FastToolsListOptions {
  sessions: SessionStore;
  port: () => number;
  maxBodyBytes: number;
  /** The tools/list result as JSON, the same string until the catalog changes. */
  toolsListResult: () => string;
}

export interface FastToolsList {
  /** Whether the request's line and headers allow a fast answer; its body is still unread. */
  wants(req: IncomingMessage): boolean;
  /** Answers `req` from its whole body and returns true, or returns false and writes nothing. */
  answer(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean;
}

export function fastToolsList(options: FastToolsListOptions): FastToolsList {
  // The answer around the id, rebuilt when the result string changes (a --watch reload).
  let cached: { result: string; head: Buffer; tail: Buffer } | undefined;
  const framing = () => {
    const result = options.toolsListResult();
    if (cached?.result !== result) {
      // The SDK's own framing: writeSSEEvent's `event: message` and `data:` lines,
      // and JSON.stringify of its response object, whose keys are result, jsonrpc, id.
      cached = { result, head: Buffer.from(`event: message\ndata: {"result":${result},"jsonrpc":"2.0","id":`), tail: Buffer.from("}\n\n") };
    }
    return cached;
  };

  return {
    wants(req) {
      const h = req.headers;
      if (req.method !== "POST" || req.url !== "/mcp") return false;
      if (h["mcp-protocol-version"] !== VERSION || h["transfer-encoding"] !== undefined || h.expect !== undefined) return false;
      const length = Number(h["content-length"]);
      if (!Number.isInteger(length) || length > Math.min(MAX_FAST_BODY, options.maxBodyBytes)) return false;
      if (!isLoopbackHost(h.host, options.port())) return false;
      if (h.origin !== undefined && !isLoopbackOrigin(h.origin)) return false;
      const contentType = h["content-type"];
      if (!isJsonMediaType(contentType) || !isJsonContentType(contentType ?? null)) return false;
      // The SDK transport's Accept check for a POST, as it is written there.
      const accept = h.accept;
      if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
      const id = h["mcp-session-id"];
      return typeof id === "string" && options.sessions.peek(id)?.kind === LEGACY_SESSION;
    },

    answer(req, res, body) {
      const text = body.toString("utf8");
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return false;
      const id = toolsListId(text);
      if (id === undefined) return false;
      const sessionId = req.headers["mcp-session-id"] as string;
      // Looked up again: the session may have ended while the body arrived.
      if (options.sessions.touch(sessionId)?.kind !== LEGACY_SESSION) return false;
      const { head, tail } = framing();
      // Header names, values and order as the SDK's Response reaches the wire
      // through @hono/node-server; one write and no Content-Length, so Node
      // frames it chunked exactly as it does the streamed SSE body.
      res.writeHead(200, [
        ["cache-control", "no-cache, no-transform"],
        ["connection", "keep-alive"],
        ["content-type", "text/event-stream"],
        ["mcp-session-id", sessionId],
        ["x-accel-buffering", "no"],
      ].flat());
      res.write(Buffer.concat([head, Buffer.from(JSON.stringify(id)), tail]));
      res.end();
      return true;
    },
  };
}

/** The id of a body that is exactly a tools/list request with no params to honour, else undefined. */
function toolsListId(text: string): string | number | undefined {
  // Most bodies seen here are tools/call requests: skip parsing them twice.
  if (!text.includes('"tools/list"')) return undefined;
  const message = parseJsonObject(text);
  return message && plainToolsListId(message);
}
