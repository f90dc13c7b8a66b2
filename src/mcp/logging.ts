// MCP log messages (`notifications/message`, the `logging` capability) for
// what a person watching would want to read: a retry and its wait, a request
// egress refused, a run abandoned, a served stepfile that stopped loading
// under --watch. The texts are built from names, statuses and waits only
// (progressMessage), never from a secret, an argument or evidence.
//
// Within a request, ctx.mcpReq.log honours the level the client chose: with
// `logging/setLevel` on the 2025-11-25 protocol (the SDK keeps it per
// session), or the level in each request's `_meta` on 2026-07-28. Outside a
// request (an idle run abandoned, a reload), a 2025 session's server sends it
// unprompted, filtered by the session's setLevel; 2026-07-28 sends nothing
// outside a request, so those messages are not sent there.
import type { LoggingLevel, Server, ServerContext } from "@modelcontextprotocol/server";
import type { RunEvent, RunEvents } from "../engine/events.js";
import type { Abandoned } from "../engine/registry.js";
import { progressMessage } from "./progress.js";

const LOGGER = "stepgate";

/** Which run events are worth a log line, and at what level. */
const LEVELS: Partial<Record<RunEvent["kind"], LoggingLevel>> = { retry: "warning", refused: "error" };

/** Log messages for one request's run events. */
export function requestLogger(ctx: ServerContext): RunEvents {
  return (event) => {
    const level = LEVELS[event.kind];
    if (level) void ctx.mcpReq.log(level, progressMessage(event), LOGGER).catch(() => undefined);
  };
}

/** A message to the session's client outside any request. A closed or stateless server cannot send one; that is not an error. */
export function logToSession(server: Server, level: LoggingLevel, text: string): void {
  if (!server.transport) return;
  // 2026-07-28 has no messages outside a request (a stdio connection pinned to it keeps its server).
  if (server.getNegotiatedProtocolVersion() === "2026-07-28") return;
  void server.sendLoggingMessage({ level, logger: LOGGER, data: text }, server.transport.sessionId).catch(() => undefined);
}

export function abandonedMessage(abandoned: Abandoned): string {
  const why = { idle: "nobody called it for --run-idle-ms", session_closed: "its session closed", server_closed: "the server is closing" }[abandoned.reason];
  return `run ${abandoned.run} abandoned: ${why}`;
}
