// A CLIENT span per outgoing request, as the HTTP client conventions name
// and describe it, with each retry as an event; the request duration metric;
// and the W3C trace headers egress adds to hops bound for declared hosts
// (src/egress/traced.ts). What a span holds of the URL: scheme, host and the
// path, as its template when the caller knows one (an OpenAPI path's
// arguments stay out); never the query, where a credential or input may sit.
import { SpanKind, SpanStatusCode, context, trace, type Attributes, type TextMapPropagator, type Tracer } from "@opentelemetry/api";
import type { EgressSpan, EgressTrace } from "../egress/types.js";
import type { Instruments } from "./instruments.js";
import * as n from "./names.js";
import { errorType } from "./run-spans.js";

const KNOWN_METHODS = new Set(["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]);
const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

export function egressSpans(tracer: Tracer, instruments: Instruments, propagator: TextMapPropagator): EgressTrace {
  const inject = (ctx: ReturnType<typeof context.active>) => {
    const carrier: Record<string, string> = {};
    propagator.inject(ctx, carrier, { set: (c, key, value) => void (c[key] = value) });
    return carrier;
  };
  return {
    begin({ operation, method, url, route }): EgressSpan {
      const started = performance.now();
      const known = KNOWN_METHODS.has(method) ? method : "_OTHER";
      const port = url.port === "" ? DEFAULT_PORTS[url.protocol] : Number(url.port);
      const common: Attributes = { [n.ATTR_HTTP_REQUEST_METHOD]: known, [n.ATTR_SERVER_ADDRESS]: url.hostname, ...(port !== undefined ? { [n.ATTR_SERVER_PORT]: port } : {}) };
      const span = tracer.startSpan(route !== undefined ? `${known} ${route}` : known, {
        kind: SpanKind.CLIENT,
        attributes: {
          ...common,
          [n.ATTR_URL_FULL]: `${url.protocol}//${url.host}${route ?? url.pathname}`,
          ...(route !== undefined ? { [n.ATTR_URL_TEMPLATE]: route } : {}),
          [n.ATTR_OPERATION]: operation,
        },
      });
      const spanContext = trace.setSpan(context.active(), span);
      return {
        headers: () => inject(spanContext),
        retried(record) {
          span.addEvent(n.EVENT_RETRY, {
            [n.ATTR_RETRY_ATTEMPT]: record.attempt,
            [n.ATTR_RETRY_WAIT_MS]: record.waitMs,
            ...(record.status !== null ? { [n.ATTR_HTTP_RESPONSE_STATUS_CODE]: record.status } : {}),
          });
        },
        end(outcome) {
          const status = "status" in outcome ? outcome.status : undefined;
          const type = "error" in outcome ? errorType(outcome.error) : status !== undefined && status >= 400 ? String(status) : undefined;
          const result: Attributes = { ...(status !== undefined ? { [n.ATTR_HTTP_RESPONSE_STATUS_CODE]: status } : {}), ...(type !== undefined ? { [n.ATTR_ERROR_TYPE]: type } : {}) };
          span.setAttributes(result);
          if (type !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          instruments.egressDuration.record((performance.now() - started) / 1000, { ...common, ...result });
        },
      };
    },
    context: () => inject(context.active()),
  };
}
