// A loopback HTTPS server with the self-signed test certificate
// (test/fixtures/tls), and the environment that makes a spawned Stepgate
// trust it (NODE_EXTRA_CA_CERTS) and resolve test names to loopback (the
// fake-dns preload): enough to exercise what only a named https host can.
import { readFileSync } from "node:fs";
import type { Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { listenLoopback, readBody, type Listening } from "./listen.js";
import { REPO_ROOT } from "./paths.js";

const TLS = join(REPO_ROOT, "test", "fixtures", "tls");
export const TEST_CA_FILE = join(TLS, "self-signed.crt");

export interface HttpsFixture extends Listening {
  received: Array<{ method: string; path: string; host: string }>;
}

export async function serveHttps(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<HttpsFixture> {
  const received: HttpsFixture["received"] = [];
  const server: Server = createServer({ key: readFileSync(join(TLS, "self-signed.key")), cert: readFileSync(TEST_CA_FILE) }, (req, res) => {
    void readBody(req).then(() => {
      received.push({ method: req.method ?? "GET", path: req.url ?? "/", host: req.headers.host ?? "" });
      handle(req, res);
    });
  });
  const listening = await listenLoopback(server as unknown as HttpServer);
  return { ...listening, origin: `https://${listening.host}`, received };
}

/** Environment for a spawned Stepgate: `names` resolve to their addresses, the test certificate is trusted when `trust` is set. */
export function namedHostEnv(names: Record<string, string[]>, trust = true): Record<string, string> {
  return {
    NODE_OPTIONS: `--import ${pathToFileURL(join(REPO_ROOT, "test", "support", "fake-dns.mjs")).href}`,
    STEPGATE_TEST_DNS: JSON.stringify(names),
    ...(trust ? { NODE_EXTRA_CA_CERTS: TEST_CA_FILE } : {}),
  };
}
