// Shared plumbing for loopback fixtures: listen on a free port of a loopback
// address only (127.0.0.1 unless a test needs ::1; never all interfaces) and
// stop without waiting for idle keep-alives.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Listening {
  origin: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function listenLoopback(server: Server, address: "127.0.0.1" | "::1" | string = "127.0.0.1"): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, address, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = `${address.includes(":") ? `[${address}]` : address}:${port}`;
  return {
    origin: `http://${host}`,
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Stepgate's HTTP client keeps connections alive; without this,
        // close() would wait for them to time out.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function readBody(req: import("node:http").IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts)));
    req.on("error", reject);
  });
}
