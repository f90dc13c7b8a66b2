// A small OTLP/HTTP receiver on 127.0.0.1, as a collector would be: it
// takes what the official exporters POST to /v1/traces and /v1/metrics in
// the JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), keeps each body
// as received (for the secret scan) and decoded (for the checks), and turns
// the spans back into a tree (what docs/observability.md shows).
import { createServer } from "node:http";
import { listenLoopback, readBody } from "../support/listen.js";

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };
interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  links: Array<{ traceId: string; spanId: string }>;
  status: number;
  resource: Record<string, unknown>;
}

export interface ReceivedPoint {
  metric: string;
  attributes: Record<string, unknown>;
  /** Sum for a counter, count for a histogram. */
  value: number;
}

export interface OtlpReceiver {
  endpoint: string;
  /** Every body as it arrived, per path. */
  bodies: Array<{ path: string; text: string }>;
  spans(): ReceivedSpan[];
  /** The data points of the latest export of each metric (cumulative, so the latest holds every total). */
  points(metric: string): ReceivedPoint[];
  close(): Promise<void>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: Array<{ path: string; text: string }> = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      bodies.push({ path: req.url ?? "", text: body.toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  const listening = await listenLoopback(server);
  return {
    endpoint: listening.origin,
    bodies,
    spans: () => bodies.filter((b) => b.path === "/v1/traces").flatMap((b) => decodeSpans(JSON.parse(b.text))),
    points(metric) {
      let latest: ReceivedPoint[] = [];
      for (const body of bodies.filter((b) => b.path === "/v1/metrics")) {
        const found = decodePoints(JSON.parse(body.text)).filter((p) => p.metric === metric);
        if (found.length > 0) latest = found;
      }
      return latest;
    },
    close: listening.close,
  };
}

function decodeSpans(request: { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: unknown[] }> }> }): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((raw) => {
        const s = raw as Record<string, unknown> & { attributes?: KeyValue[]; events?: Array<{ name: string; attributes?: KeyValue[] }>; links?: Array<{ traceId: string; spanId: string }>; status?: { code?: number } };
        return {
          traceId: String(s.traceId),
          spanId: String(s.spanId),
          parentSpanId: typeof s.parentSpanId === "string" ? s.parentSpanId : "",
          name: String(s.name),
          kind: Number(s.kind),
          start: BigInt(String(s.startTimeUnixNano)),
          end: BigInt(String(s.endTimeUnixNano)),
          attributes: attributes(s.attributes),
          events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributes(e.attributes) })),
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          status: s.status?.code ?? 0,
          resource: attributes(rs.resource?.attributes),
        };
      }),
    ),
  );
}

function decodePoints(request: { resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: unknown[] }> }> }): ReceivedPoint[] {
  return (request.resourceMetrics ?? []).flatMap((rm) =>
    (rm.scopeMetrics ?? []).flatMap((sm) =>
      (sm.metrics ?? []).flatMap((raw) => {
        const m = raw as { name: string; sum?: { dataPoints?: unknown[] }; histogram?: { dataPoints?: unknown[] } };
        const points = (m.sum?.dataPoints ?? m.histogram?.dataPoints ?? []) as Array<{ attributes?: KeyValue[]; asInt?: string | number; asDouble?: number; count?: string | number }>;
        return points.map((p) => ({ metric: m.name, attributes: attributes(p.attributes), value: Number(p.count ?? p.asInt ?? p.asDouble ?? 0) }));
      }),
    ),
  );
}

function attributes(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, value(kv.value)]));
}

function value(v: AnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  return undefined;
}

/** Waits (polling) until `ready` holds, or fails naming what it waited for. */
export async function until(what: string, ready: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const KIND_NAMES: Record<number, string> = { 1: "internal", 2: "server", 3: "client" };
const SHOWN = ["mcp.method.name", "gen_ai.tool.name", "mcp.protocol.version", "stepgate.step.attempt", "stepgate.step.outcome", "stepgate.run.outcome", "http.request.method", "server.address", "url.full", "http.response.status_code", "error.type"];

/** The spans of one trace as an indented tree, children in start order, with the attributes and events worth seeing at a glance. */
export function renderTree(spans: ReceivedSpan[]): string {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : "";
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const origin = spans.reduce((min, s) => (s.start < min ? s.start : min), spans[0]?.start ?? 0n);
  const lines: string[] = [];
  const walk = (parent: string, prefix: string) => {
    const list = (children.get(parent) ?? []).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    list.forEach((span, i) => {
      const last = i === list.length - 1;
      const ms = (ns: bigint) => (Number(ns) / 1e6).toFixed(1);
      const shown = SHOWN.filter((k) => span.attributes[k] !== undefined).map((k) => `${k}=${String(span.attributes[k])}`);
      const links = span.links.length > 0 ? [`links=${span.links.length}`] : [];
      lines.push(`${prefix}${last ? "└─ " : "├─ "}${span.name} [${KIND_NAMES[span.kind] ?? span.kind}] +${ms(span.start - origin)} ms, ${ms(span.end - span.start)} ms  ${[...shown, ...links].join(" ")}`.trimEnd());
      for (const event of span.events) {
        const detail = Object.entries(event.attributes).map(([k, v]) => `${k}=${String(v)}`).join(" ");
        lines.push(`${prefix}${last ? "   " : "│  "}  · ${event.name} ${detail}`);
      }
      walk(span.spanId, `${prefix}${last ? "   " : "│  "}`);
    });
  };
  walk("", "");
  return lines.join("\n");
}
