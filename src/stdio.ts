// The stdio adapter: one client, one session, one server from the shared
// factory. When the client closes the pipe, the session's runs are abandoned.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { McpServerFactory } from "./mcp/factory-types.js";
import { newSession } from "./session.js";
import type { Handover } from "./stdio-early.js";

/**
 * Serves the session on stdin/stdout, or, after src/stdio-early.ts answered
 * its first messages, on the bytes it hands over (the SDK server's answer to
 * the replayed initialize is not written again).
 */
export async function serveStdio(factory: McpServerFactory, handover?: Handover): Promise<{ closed: Promise<void>; server: ReturnType<McpServerFactory["create"]> }> {
  const session = newSession();
  const server = factory.create(session);
  const input = handover?.input ?? process.stdin;
  const transport = new StdioServerTransport(input, process.stdout);
  if (handover?.answeredInitialize !== undefined) dropInitializeAnswer(transport, handover.answeredInitialize);
  const closed = new Promise<void>((resolve) => {
    const end = () => {
      factory.endSession(session);
      resolve();
    };
    server.onclose = end;
    input.once("end", () => void server.close().catch(() => undefined).then(end));
  });
  await server.connect(transport);
  return { closed, server };
}

/** The client already has the answer to initialize `id`: the SDK's answer to it is dropped, once. */
function dropInitializeAnswer(transport: StdioServerTransport, id: string | number): void {
  const send = transport.send.bind(transport);
  let dropped = false;
  transport.send = (message: JSONRPCMessage) => {
    if (!dropped && "result" in message && message.id === id && "serverInfo" in message.result) {
      dropped = true;
      return Promise.resolve();
    }
    return send(message);
  };
}
