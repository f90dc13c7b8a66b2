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

/**
 * Listens on 127.0.0.1:`port`, or on any free port when it is undefined
 * (RFC 8252 section 7.3 asks servers to accept any loopback port; some
 * require the registered one, hence --redirect-port).
 */
export async function listenForRedirect(waitMs: number, port?: number): Promise<RedirectListener> {
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
    server.once("error", (error: NodeJS.ErrnoException) => reject(new AuthorizationFailed(`cannot listen for the redirect on 127.0.0.1:${port ?? 0}${port !== undefined ? " (--redirect-port)" : ""}: ${error.code ?? error.message}`)));
    server.listen(port ?? 0, "127.0.0.1", () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timer = setTimeout(() => fail(new AuthorizationFailed(timedOut(`${origin}/callback`, waitMs, port !== undefined))), waitMs);
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

/**
 * A server that refuses the authorization request itself (an unknown client,
 * a redirect URI it does not accept) shows its error page in the browser
 * and never redirects; all Stepgate sees is the wait ending, so it says
 * where to look and what usually causes it.
 */
function timedOut(redirectUri: string, waitMs: number, portGiven: boolean): string {
  const seconds = waitMs >= 1000 ? `${Math.round(waitMs / 1000)} s` : `${waitMs} ms`;
  const port = portGiven ? "" : ", or --redirect-port <n> when the client was registered with a redirect URI that has a port";
  return `no redirect arrived at ${redirectUri} within ${seconds}. If the browser shows an error page from the authorization server instead, it refused the request before asking anyone: read its reason there. An unknown client or an unregistered redirect URI are the usual causes: check --client-id${port}`;
}
