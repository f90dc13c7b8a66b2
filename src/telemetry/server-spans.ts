// A SERVER span per MCP request, named and described as the MCP semantic
// conventions say (`{mcp.method.name} {target}`), continuing the trace a
// client put in `params._meta`; the operation and session durations; the
// sessions open. Plugged into src/mcp/watched-server.ts.
import { createHash } from "node:crypto";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Attributes, type Link, type SpanContext, type TextMapPropagator, type Tracer } from "@opentelemetry/api";
import type { OperationWatch, WatchedRequest } from "../mcp/watched-server.js";
import type { Instruments } from "./instruments.js";
import * as n from "./names.js";

export interface ServerSpanOptions {
  tracer: Tracer;
  instruments: Instruments;
  propagator: TextMapPropagator;
  transport: "pipe" | "tcp";
  /** The span of a run in progress, which later calls of the run link to. */
  runSpan(run: string): SpanContext | undefined;
}

/** The SDK's answer to a handler that throws without a code of its own (JSON-RPC internal error). */
const INTERNAL_ERROR = -32603;

export function serverSpans(options: ServerSpanOptions): OperationWatch {
  const { tracer, instruments, transport } = options;
  const sessions = new Map<string, number>();
  return {
    async request<T>(request: WatchedRequest, handle: () => Promise<T>): Promise<T> {
      const started = performance.now();
      const tool = request.method === "tools/call" && typeof request.params?.name === "string" ? request.params.name : undefined;
      const attributes: Attributes = {
        [n.ATTR_MCP_METHOD_NAME]: request.method,
        [n.ATTR_JSONRPC_REQUEST_ID]: String(request.id),
        [n.ATTR_NETWORK_TRANSPORT]: transport,
        ...(request.sessionId ? { [n.ATTR_MCP_SESSION_ID]: pseudonym(request.sessionId) } : {}),
        ...(tool !== undefined ? { [n.ATTR_GEN_AI_TOOL_NAME]: tool, [n.ATTR_GEN_AI_OPERATION_NAME]: "execute_tool" } : {}),
      };
      // stepgate_call and stepgate_submit belong to a run whose span another request started: link to it.
      const run = tool === "stepgate_call" || tool === "stepgate_submit" ? runArgument(request.params) : undefined;
      const runSpan = run === undefined ? undefined : options.runSpan(run);
      const links: Link[] = runSpan ? [{ context: runSpan }] : [];
      if (run !== undefined) attributes[n.ATTR_RUN_ID] = run;
      const span = tracer.startSpan(tool !== undefined ? `${request.method} ${tool}` : request.method, { kind: SpanKind.SERVER, attributes, links }, clientContext(options.propagator, request.params));
      let errorType: string | undefined;
      try {
        const result = await context.with(trace.setSpan(context.active(), span), handle);
        // The conventions' error type for a tool whose result says it failed.
        if (isToolError(result)) errorType = "tool_error";
        return result;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const status = typeof code === "number" && Number.isSafeInteger(code) ? code : INTERNAL_ERROR;
        errorType = String(status);
        span.setAttribute(n.ATTR_RPC_RESPONSE_STATUS_CODE, errorType);
        throw error;
      } finally {
        const version = request.protocolVersion();
        if (version !== undefined) span.setAttribute(n.ATTR_MCP_PROTOCOL_VERSION, version);
        if (errorType !== undefined) {
          span.setAttribute(n.ATTR_ERROR_TYPE, errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
        instruments.operationDuration.record((performance.now() - started) / 1000, {
          [n.ATTR_MCP_METHOD_NAME]: request.method,
          [n.ATTR_NETWORK_TRANSPORT]: transport,
          ...(tool !== undefined ? { [n.ATTR_GEN_AI_TOOL_NAME]: tool } : {}),
          ...(version !== undefined ? { [n.ATTR_MCP_PROTOCOL_VERSION]: version } : {}),
          ...(errorType !== undefined ? { [n.ATTR_ERROR_TYPE]: errorType } : {}),
        });
      }
    },
    sessionOpened(session) {
      if (sessions.has(session)) return;
      sessions.set(session, performance.now());
      instruments.sessionsActive.add(1, { [n.ATTR_NETWORK_TRANSPORT]: transport });
    },
    sessionEnded(session) {
      const started = sessions.get(session);
      if (started === undefined) return;
      sessions.delete(session);
      instruments.sessionsActive.add(-1, { [n.ATTR_NETWORK_TRANSPORT]: transport });
      instruments.sessionDuration.record((performance.now() - started) / 1000, { [n.ATTR_NETWORK_TRANSPORT]: transport });
    },
  };
}

/** The client's trace from `params._meta` (traceparent, tracestate), else a new trace: never a context left over from another request. */
function clientContext(propagator: TextMapPropagator, params: Record<string, unknown> | undefined) {
  const meta = params?._meta;
  if (!meta || typeof meta !== "object") return ROOT_CONTEXT;
  const carrier = meta as Record<string, unknown>;
  const extracted = propagator.extract(ROOT_CONTEXT, carrier, {
    keys: (c) => Object.keys(c),
    get: (c, key) => (typeof c[key] === "string" ? c[key] : undefined),
  });
  return trace.getSpanContext(extracted) ? extracted : ROOT_CONTEXT;
}

function runArgument(params: Record<string, unknown> | undefined): string | undefined {
  const args = params?.arguments;
  const run = args && typeof args === "object" ? (args as Record<string, unknown>).run : undefined;
  return typeof run === "string" && run !== "" ? run : undefined;
}

function isToolError(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true;
}

/**
 * The session id as the backend sees it: a 2025-11-25 session id is the
 * Mcp-Session-Id header's value, which lets whoever holds it speak in the
 * session, so it never leaves as it is. Its SHA-256 (first 128 bits) still
 * groups a session's spans.
 */
export function pseudonym(session: string): string {
  return createHash("sha256").update(session).digest("hex").slice(0, 32);
}
