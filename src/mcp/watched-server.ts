// Where every request a server answers can be watched: the SDK's
// `_wrapHandler` is the hook it gives subclasses around each registered
// handler, including its own (initialize), for both protocol eras and every
// transport, since they all reach the one factory. Telemetry's server spans
// (src/telemetry) plug in here; no OpenTelemetry type is known in this layer.
import { Server } from "@modelcontextprotocol/server";

/** What a watcher learns of one request: names and ids, never arguments' values beyond `params` it chooses to read. */
export interface WatchedRequest {
  method: string;
  id: string | number;
  params: Record<string, unknown> | undefined;
  /** The transport's session id (2025-11-25 HTTP sessions); undefined on stdio and 2026-07-28. */
  sessionId: string | undefined;
  /** The protocol revision this request is served under, once known (after initialize answers, for initialize). */
  protocolVersion(): string | undefined;
}

export interface OperationWatch {
  /** Runs `handle` (exactly once) for one request and returns what it returns. */
  request<T>(request: WatchedRequest, handle: () => Promise<T>): Promise<T>;
  /** A session's first server was made (HTTP 2026-07-28 makes one per request: only the first counts). */
  sessionOpened(session: string): void;
  sessionEnded(session: string): void;
}

type Handler = Parameters<Server["_wrapHandler"]>[1];

/** A Server class whose every request handler runs inside `watch.request`. */
export function watchedServer(watch: OperationWatch): typeof Server {
  return class WatchedServer extends Server {
    protected override _wrapHandler(method: string, handler: Handler): Handler {
      const inner = super._wrapHandler(method, handler);
      return (request, ctx) =>
        watch.request(
          {
            method,
            id: request.id,
            params: request.params as Record<string, unknown> | undefined,
            sessionId: ctx.sessionId,
            protocolVersion: () => this.getNegotiatedProtocolVersion(),
          },
          () => inner(request, ctx),
        );
    }
  };
}
