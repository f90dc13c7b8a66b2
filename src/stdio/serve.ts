// The stdio adapter: one client, one session, served in either protocol era
// by the SDK's serveStdio, which reads the opening exchange and pins one
// server from the shared factory for the connection: a 2025 `initialize`
// gets a 2025 session, a 2026-07-28 opening (`server/discover`, or any
// request carrying the revision's `_meta` envelope) the 2026-07-28 revision,
// with the same tools, approvals (input-required results), progress, logging
// and resources as HTTP serves it. A client that probes with server/discover
// and then falls back to initialize gets a second server for the same
// session; the probe's is closed. JSON-RPC batches are served or refused by
// the session's revision (src/stdio/batches.ts). When the client closes the
// pipe, the session's runs are abandoned.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type Server } from "@modelcontextprotocol/server";
import { serveStdio as serveBothEras, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { McpServerFactory } from "../mcp/factory-types.js";
import { newSession } from "../session.js";
import { stdioBatches } from "./batches.js";
import type { Handover } from "./early.js";

export interface StdioHooks {
  /** A 2025 session's server got `notifications/initialized` (after src/stdio/early.ts, the replayed one). */
  initialized?(server: Server): void;
}

/**
 * Serves the session on stdin/stdout, or, after src/stdio/early.ts answered
 * its first messages, on the bytes it hands over (the SDK server's answer to
 * the replayed initialize is not written again). `closed` settles once the
 * client closed the pipe and the session's runs were abandoned.
 */
export function serveStdio(factory: McpServerFactory, handover?: Handover, hooks: StdioHooks = {}): { closed: Promise<void> } {
  const session = newSession();
  const batches = stdioBatches(handover?.input ?? process.stdin, process.stdout, { supported: SUPPORTED_PROTOCOL_VERSIONS, latest: LATEST_PROTOCOL_VERSION });
  const transport = new StdioServerTransport(batches.input, process.stdout);
  batches.answerThrough(transport);
  if (handover?.answeredInitialize !== undefined) dropOpeningAnswer(transport, handover.answeredInitialize, "serverInfo");
  if (handover?.answeredDiscover !== undefined) dropOpeningAnswer(transport, handover.answeredDiscover, "supportedVersions");
  if (handover?.answeredModernToolsList !== undefined) dropOpeningAnswer(transport, handover.answeredModernToolsList, "tools");
  serveBothEras(
    ({ era }) => {
      const server = factory.create(session);
      if (era === "legacy" && hooks.initialized) server.oninitialized = () => hooks.initialized!(server);
      return server;
    },
    { transport },
  );
  // serveStdio took the transport's onclose (to close the pinned server); the session ends after it.
  const closed = new Promise<void>((resolve) => {
    const closeServer = transport.onclose;
    transport.onclose = () => {
      closeServer?.();
      factory.endSession(session);
      resolve();
    };
  });
  return { closed };
}

/** The client already has the answer to the opening request `id` (initialize, server/discover, a 2026-07-28 tools/list: its result holds `key`): the SDK's answer to it is dropped, once. */
function dropOpeningAnswer(transport: StdioServerTransport, id: string | number, key: string): void {
  const send = transport.send.bind(transport);
  let dropped = false;
  transport.send = (message: JSONRPCMessage) => {
    if (!dropped && "result" in message && message.id === id && key in message.result) {
      dropped = true;
      return Promise.resolve();
    }
    return send(message);
  };
}
