// The stdio adapter: one client, one session, one server from the shared
// factory. When the client closes the pipe, the session's runs are abandoned.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { McpServerFactory } from "./mcp/factory-types.js";
import { newSession } from "./session.js";

export async function serveStdio(factory: McpServerFactory): Promise<{ closed: Promise<void> }> {
  const session = newSession();
  const server = factory.create(session);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const end = () => {
      factory.endSession(session);
      resolve();
    };
    server.onclose = end;
    process.stdin.once("end", () => void server.close().catch(() => undefined).then(end));
  });
  await server.connect(transport);
  return { closed };
}
