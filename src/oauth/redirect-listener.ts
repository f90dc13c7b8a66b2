// The loopback redirect of RFC 8252 (7.3): a listener on 127.0.0.1 at a
// port the system picks, waiting for the browser to bring back the
// authorization response. It is inbound, so it is not egress; it answers
// only GET /callback, once, and stops after a bounded wait.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthorizationFailed } from "../errors.js";

export interface RedirectListener {
  /** `http://127.0.0.1:<port>/callback` */
  redirectUri: string;
  /** The redirect's full URL (code, state, iss) once the browser arrives. */
  received: Promise<URL>;
  close(): Promise<void>;
}

const PAGE = "Stepgate received the authorization response. You can close this tab and return to the terminal.\n";

export async function listenForRedirect(waitMs: number): Promise<RedirectListener> {
  let deliver!: (url: URL) => void;
  let fail!: (error: Error) => void;
  const received = new Promise<URL>((resolve, reject) => {
    deliver = resolve;
    fail = reject;
  });
  // The caller may stop waiting first (an error elsewhere); this keeps that rejection from surfacing as unhandled.
  received.catch(() => undefined);
  let origin = "";
  let done = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (req.method !== "GET" || url.pathname !== "/callback" || done) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.\n");
      return;
    }
    done = true;
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(PAGE);
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  const timer = setTimeout(() => fail(new AuthorizationFailed(`no redirect arrived at ${origin}/callback within ${Math.round(waitMs / 1000)} s`)), waitMs);
  return {
    redirectUri: `${origin}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
