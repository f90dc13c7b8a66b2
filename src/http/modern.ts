// The 2026-07-28 revision has no initialize and no session: every request
// carries its protocol version, client info and capabilities in `_meta`, and
// nothing in it identifies a caller across requests (clientInfo is a
// self-chosen name, not an identity). Yet runs span many requests.
//
// Decision: all 2026 traffic of one server shares ONE Stepgate session. A run
// started over 2026 is owned by whoever holds its run id, an unguessable
// random id returned only to the caller that started it; every caller is a
// local process (the server is loopback-only). Runs of 2025 sessions stay
// out of reach of 2026 callers and vice versa, because they belong to
// different sessions. Reaping: each run is abandoned after --run-idle-ms by
// the engine as on stdio; the shared session itself sits in the session
// store like any other and is ended (factory.endSession) after idleMs with no
// 2026 request at all, when every run in it is idle anyway. The next 2026
// request then opens a fresh shared session.
import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { McpServerFactory } from "../mcp/factory-types.js";
import { newSession, type Session } from "../session.js";
import { answerHeld } from "./release-on-end.js";
import { sessionEndReason, type SessionStore } from "./sessions.js";

export interface ModernHandlerOptions {
  factory: McpServerFactory;
  sessions: SessionStore;
  onerror?: (error: Error) => void;
}

export interface ModernHandler {
  /** Serves one 2026-era request; `parsedBody` is the already-parsed POST body. */
  fetch(request: Request, parsedBody: unknown): Promise<Response>;
  close(): Promise<void>;
}

const KIND = "shared-2026";

export function modernHandler(options: ModernHandlerOptions): ModernHandler {
  const { factory, sessions } = options;
  let current: Session | undefined;

  // The shared session, renewed after the store reaped it.
  function sharedSession(): Session {
    if (current && sessions.touch(current.id)) return current;
    const session = newSession(undefined, { runsUnlisted: true });
    current = session;
    sessions.add({
      kind: KIND,
      session,
      async close(reason) {
        if (current === session) current = undefined;
        await factory.endSession(session, sessionEndReason(reason));
      },
    });
    return session;
  }

  // The SDK builds a server per request; all of them serve the shared session.
  const handler: McpHttpHandler = createMcpHandler(() => factory.create(sharedSession()), {
    legacy: "reject",
    ...(options.onerror ? { onerror: options.onerror } : {}),
  });

  return {
    // Held while answered, like a 2025 POST, so a long call keeps the shared session.
    fetch: (request, parsedBody) =>
      answerHeld(sessions.hold(sharedSession().id), () => handler.fetch(request, { parsedBody })),
    close: () => handler.close(),
  };
}
