// The 2025-11-25 session protocol: `initialize` opens a session (one
// transport and one server from the factory), its `Mcp-Session-Id` names it on
// every later POST, GET (event stream) and DELETE.
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { jsonRpcErrorBody, JsonRpcCode } from "../../middleware/json-rpc-error.js";
import type { McpServerFactory } from "../mcp/factory-types.js";
import { newSession, type Session } from "../session.js";
import { refuseBatch } from "./batch-refusal.js";
import { answerHeld, releaseOnEnd } from "./release-on-end.js";
import { sessionEndReason, type EndReason, type SessionStore } from "./sessions.js";

export interface LegacySessionsOptions {
  factory: McpServerFactory;
  sessions: SessionStore;
}

/** Serves one 2025-era request; `parsedBody` is the already-parsed POST body. */
export type LegacyHandler = (request: Request, parsedBody: unknown) => Promise<Response>;

/** The store's kind for a 2025 session (an entry this handler made). */
export const LEGACY_SESSION = "legacy-session";

interface LegacyEntry {
  readonly kind: typeof LEGACY_SESSION;
  readonly session: Session;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** The protocol version the session's initialize negotiated. */
  protocolVersion(): string | undefined;
  close(reason: EndReason): Promise<void>;
}

function refuse(status: number, code: number, message: string): Response {
  return new Response(jsonRpcErrorBody(code, message), { status, headers: { "content-type": "application/json" } });
}

/** --max-sessions reached and every session holds a run: the client may try again later. */
function tooManySessions(retryAfterSeconds: number): Response {
  return new Response(jsonRpcErrorBody(JsonRpcCode.Refused, "Service Unavailable: too many open sessions (--max-sessions), each holding a run; try again later"), {
    status: 503,
    headers: { "content-type": "application/json", "retry-after": String(retryAfterSeconds) },
  });
}

export function legacySessions(options: LegacySessionsOptions): LegacyHandler {
  const { factory, sessions } = options;

  async function open(request: Request, parsedBody: unknown): Promise<Response> {
    const session = newSession();
    const server = factory.create(session);
    // Held while its initialize is answered, so the grace for a client that
    // never follows up counts from when the answer went out: on a loaded
    // machine the answer itself can take seconds.
    let release: (() => void) | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => session.id,
      onsessioninitialized: () => {
        sessions.add(entry, { awaitingClient: true });
        release = sessions.hold(session.id);
      },
    });
    let closed = false;
    const entry: LegacyEntry = {
      kind: LEGACY_SESSION,
      session,
      transport,
      protocolVersion: () => server.getNegotiatedProtocolVersion(),
      async close(reason) {
        if (closed) return;
        closed = true;
        // endSession runs even if closing the server throws: the factory must
        // always learn that the session's runs are to be abandoned. Awaited, so
        // a DELETE is answered only once their run_abandoned records are written.
        try {
          await server.close();
        } finally {
          await factory.endSession(session, sessionEndReason(reason));
        }
      },
    };
    // The server closing on its own (transport error) ends the session too.
    server.onclose = () => void sessions.end(session.id, "closed");
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody });
      // A refused initialize never registered the session: release it now.
      if (!sessions.has(session.id)) await entry.close("closed");
      return release ? releaseOnEnd(response, release) : response;
    } catch (error) {
      release?.();
      if (sessions.has(session.id)) await sessions.end(session.id, "closed");
      else await entry.close("closed");
      throw error;
    }
  }

  return async function handleLegacy(request, parsedBody) {
    const id = request.headers.get("mcp-session-id");
    if (id === null) {
      if (request.method === "POST" && isInitializeRequest(parsedBody)) {
        if (!sessions.makeRoom()) return tooManySessions(sessions.retryAfterSeconds);
        return open(request, parsedBody);
      }
      return refuse(400, JsonRpcCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required");
    }
    const found = sessions.touch(id) as LegacyEntry | undefined;
    // Only ids this handler minted are served; the shared 2026 session's id is not one.
    if (found?.kind !== LEGACY_SESSION) return refuse(404, JsonRpcCode.SessionNotFound, "Session not found");
    if (request.method === "DELETE") {
      // Ended here rather than through the transport's DELETE handling, so
      // endSession has run, and its runs' run_abandoned are written, before
      // the client sees the reply.
      await sessions.end(id, "deleted");
      return new Response(null, { status: 200 });
    }
    // A GET stream is not held: an attached stream alone does not keep a session alive.
    if (request.method === "GET") return found.transport.handleRequest(request);
    const refused = refuseBatch(parsedBody, found.protocolVersion());
    if (refused) return refused;
    return answerHeld(sessions.hold(id), () => found.transport.handleRequest(request, { parsedBody }));
  };
}
