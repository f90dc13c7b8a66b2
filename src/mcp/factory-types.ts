// The seam between the MCP surface and the transports: every transport asks
// one factory for a server per session, and tells it when a session ends so
// the session's runs are abandoned.
import type { Server } from "@modelcontextprotocol/server";
import type { Session } from "../session.js";

export interface McpServerFactory {
  /** A new MCP server bound to one session (stdio: the one client; HTTP: one session). */
  create(session: Session): Server;
  /**
   * The session ended (closed, deleted or reaped for idling; `server_closed`
   * when the server itself is shutting down): abandon its runs. Resolves once
   * every run_abandoned is written, so a transport can answer a DELETE after
   * the records that say so. Never rejects.
   */
  endSession(session: Session, reason?: "session_closed" | "server_closed"): Promise<void> | void;
  /**
   * The tools/list result every server of this factory answers, as JSON: the
   * same string until the catalog changes (--watch). A transport may answer
   * tools/list from it without a server (src/http/tools-list-cache.ts).
   */
  toolsListResult?(): string;
  /**
   * What a session's runs say about closing it: whether it holds a run that
   * has not ended, and whether it ever started one. The HTTP session store
   * reads it to choose whom to close at --max-sessions and how long a
   * session may idle (src/http/sessions.ts).
   */
  sessionRuns?(session: Session): SessionRuns;
}

export interface SessionRuns {
  active: boolean;
  started: boolean;
}
