// `stepgate --http`: the Hono app (guards, then /mcp) on 127.0.0.1 only.
import { getRequestListener, RequestError } from "@hono/node-server";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { jsonRpcErrorBody, JsonRpcCode } from "../../middleware/json-rpc-error.js";
import { FORBIDDEN_HOST } from "../../middleware/loopback-host.js";
import type { McpServerFactory } from "../mcp/factory-types.js";
import { createHttpApp } from "./app.js";
import { LEGACY_SESSION } from "./legacy-sessions.js";
import { SessionStore } from "./sessions.js";

export interface HttpServerOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Only loopback IPv4 is served (spec: binds 127.0.0.1 only). */
  host?: "127.0.0.1";
  factory: McpServerFactory;
  /** Close a session after this long without a request (--run-idle-ms). */
  idleMs: number;
  /** Close a session that never started a run after this long without a request (--session-idle-ms). */
  runlessIdleMs?: number;
  /** One line per session opened or ended, and per MCP transport error. */
  log?: (line: string) => void;
  /** Largest request body; default 4 MiB. */
  maxBodyBytes?: number;
  /** Most sessions open at once (--max-sessions); default DEFAULT_MAX_SESSIONS. */
  maxSessions?: number;
  /** The bearer token every request must carry (--http-token-file); none when undefined. */
  token?: string;
  /** How long a request may take to arrive whole (node's requestTimeout, default 300 s); answered 408 past it. */
  requestTimeoutMs?: number;
  /** Runs once the port is bound, before the listening line; if it throws, the server closes and the start fails with that error. */
  bound?: () => void;
}

/** The port is taken, or may not be bound: a start error the operator fixes, not a defect. */
export class ListenError extends Error {
  override name = "ListenError";
}

export interface HttpServer {
  readonly port: number;
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Live sessions (2025 sessions plus the shared 2026 one, when open). */
  readonly sessions: SessionStore;
  /** Stop listening, end every session (factory.endSession for each) and drop open streams. */
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log;
  const sessions = new SessionStore({
    idleMs: options.idleMs,
    ...(options.runlessIdleMs !== undefined ? { runlessIdleMs: options.runlessIdleMs } : {}),
    ...(options.factory.sessionRuns ? { runs: options.factory.sessionRuns.bind(options.factory) } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
    // A line per client session: the shared 2026-07-28 session is no client's (none opened it), so its end is not logged.
    onEnded: (session, reason, kind) => {
      if (kind === LEGACY_SESSION) log?.(`session ${session.id} ended (${reason === "evicted" ? "idle; closed to make room for a new session at --max-sessions" : reason})`);
    },
  });
  let port = 0;
  // Connections node timed out (requestTimeout): their requests were not abandoned by the client.
  const timedOut = new WeakSet<Socket>();
  const { app, close: closeApp } = createHttpApp({
    factory: options.factory,
    sessions,
    port: () => port,
    ...(log ? { log } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
    gone: (incoming) => {
      if (timedOut.has(incoming.socket)) return `timed out (the request did not arrive whole within ${server.requestTimeout} ms)`;
      return incoming.socket.destroyed ? "the client closed the connection" : undefined;
    },
  });
  const listener = getRequestListener(app.fetch, { hostname: host, errorHandler: refuseUnreadableRequest });
  // Node would answer a Host-less request with a bare 400; letting it
  // through gives the Host guard the say, with a JSON-RPC shaped 403.
  const timeouts = options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs, connectionsCheckingInterval: Math.max(10, Math.min(30_000, options.requestTimeoutMs / 4)) };
  const server = createServer({ requireHostHeader: false, ...timeouts }, (req, res) => {
    // A Host that cannot form a URL (`[::1].evil.example`) would fail inside
    // the adaptor before the guards run: refuse it here as they would.
    const hostHeader = req.headers.host;
    if (hostHeader !== undefined && !URL.canParse(`http://${hostHeader}/`)) {
      res.writeHead(403, { "content-type": "application/json" }).end(jsonRpcErrorBody(JsonRpcCode.Refused, FORBIDDEN_HOST));
      return;
    }
    void listener(req, res);
  });
  // What node would answer a request it cannot read or that timed out (400, 431, 408), JSON-RPC shaped
  // like every other refusal; a timeout is also remembered, so its log line says so rather than "client closed".
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const timeout = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    if (timeout) timedOut.add(socket);
    // As node's own handler does: no status line into an answer already under way on this connection.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const [status, text] = timeout ? [408, "Request Timeout"] : error.code === "HPE_HEADER_OVERFLOW" ? [431, "Request Header Fields Too Large"] : [400, "Bad Request"];
      const body = jsonRpcErrorBody(timeout ? JsonRpcCode.Refused : JsonRpcCode.InvalidRequest, `${text}: ${timeout ? "the request did not arrive whole in time" : "the request cannot be read"}`);
      socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    }
    socket.destroy(error);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const why = error.code === "EADDRINUSE" ? "it is in use by another process" : error.code === "EACCES" ? "this user may not bind it" : undefined;
      reject(why ? new ListenError(`cannot listen on ${host}:${options.port}: ${why} (${error.code}); choose another --http port, or 0 for a free one`) : error);
    });
    server.listen(options.port, host, () => {
      server.removeAllListeners("error");
      resolve();
    });
  });
  try {
    options.bound?.();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sessions.closeAll();
    throw error;
  }
  // The Host guard reads the port lazily: with port 0 it is known only now,
  // and no request can have been accepted before listen's callback.
  port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}/mcp`;
  log?.(`listening on ${url}`);

  return {
    port,
    url,
    sessions,
    async close() {
      // Stop accepting connections first, so no session opens behind closeAll.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await sessions.closeAll();
      await closeApp();
      // Event streams and keep-alive connections never end on their own.
      if ("closeAllConnections" in server) server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * Any other request the adaptor cannot turn into a Request never reaches the
 * app: answer it JSON-RPC shaped too, 403 when the adaptor found the Host
 * unusable (`[::ffff:127.0.0.1]`, which it will not normalise), else 400 (a
 * backslash in the path, say).
 */
function refuseUnreadableRequest(error: unknown): Response {
  const json = { "content-type": "application/json" };
  if (error instanceof RequestError && /host/i.test(error.message)) {
    return new Response(jsonRpcErrorBody(JsonRpcCode.Refused, FORBIDDEN_HOST), { status: 403, headers: json });
  }
  const reason = error instanceof RequestError ? error.message : "the request cannot be read";
  return new Response(jsonRpcErrorBody(JsonRpcCode.InvalidRequest, `Bad Request: ${reason}`), { status: 400, headers: json });
}
