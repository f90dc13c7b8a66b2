// Where the MCP layer plugs into what runs report: one tools/call's run
// events become its progress notifications and log messages, and events that
// belong to no request (a run abandoned, a stepfile that stopped loading
// under --watch) go to the session they concern.
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import type { RunEvents } from "../engine/events.js";
import type { RunRegistry } from "../engine/registry.js";
import { abandonedMessage, logToSession, requestLogger } from "./logging.js";
import { progressNotifier } from "./progress.js";
import type { ServedStepfiles } from "./served.js";

/** The events of the request `ctx` handles: progress when it carried `progressToken`, and log messages. */
export function requestEvents(ctx: ServerContext, progressToken: string | number | undefined): RunEvents {
  const progress = progressNotifier(ctx, progressToken);
  const log = requestLogger(ctx);
  return (event) => {
    progress?.(event);
    log(event);
  };
}

/**
 * Tells each session's client of its runs abandoned while idle, and every
 * client of a served stepfile that stopped loading. `serverOf` finds the
 * session's server (none once it ended). Returns the way to stop.
 */
export function announceOutsideRequests(registry: RunRegistry, stepfiles: ServedStepfiles, serverOf: (session: string) => Server | undefined, servers: () => Iterable<Server>): () => void {
  const stopAbandoned = registry.onAbandoned((abandoned) => {
    const server = serverOf(abandoned.owner);
    if (server) logToSession(server, "warning", abandonedMessage(abandoned));
  });
  const stopWarnings = stepfiles.onWarning((text) => {
    for (const server of servers()) logToSession(server, "warning", text);
  });
  return () => {
    stopAbandoned();
    stopWarnings();
  };
}
