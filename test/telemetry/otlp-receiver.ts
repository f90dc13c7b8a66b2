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

/** The spans of one trace in tree order (children by start time), each with its depth and whether it is its parent's last child. */
function treeOrder(spans: ReceivedSpan[]): Array<{ span: ReceivedSpan; depth: number; prefix: string; last: boolean }> {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : "";
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const out: Array<{ span: ReceivedSpan; depth: number; prefix: string; last: boolean }> = [];
  const walk = (parent: string, depth: number, prefix: string) => {
    const list = (children.get(parent) ?? []).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    list.forEach((span, i) => {
      const last = i === list.length - 1;
      out.push({ span, depth, prefix, last });
      walk(span.spanId, depth + 1, `${prefix}${last ? "   " : "│  "}`);
    });
  };
  walk("", 0, "");
  return out;
}

const traceStart = (spans: ReceivedSpan[]) => spans.reduce((min, s) => (s.start < min ? s.start : min), spans[0]?.start ?? 0n);

/** The spans of one trace as an indented tree, children in start order, with the attributes and events worth seeing at a glance. */
export function renderTree(spans: ReceivedSpan[]): string {
  const origin = traceStart(spans);
  const ms = (ns: bigint) => (Number(ns) / 1e6).toFixed(1);
  const lines: string[] = [];
  for (const { span, prefix, last } of treeOrder(spans)) {
    const shown = SHOWN.filter((k) => span.attributes[k] !== undefined).map((k) => `${k}=${String(span.attributes[k])}`);
    const links = span.links.length > 0 ? [`links=${span.links.length}`] : [];
    lines.push(`${prefix}${last ? "└─ " : "├─ "}${span.name} [${KIND_NAMES[span.kind] ?? span.kind}] +${ms(span.start - origin)} ms, ${ms(span.end - span.start)} ms  ${[...shown, ...links].join(" ")}`.trimEnd());
    for (const event of span.events) {
      const detail = Object.entries(event.attributes).map(([k, v]) => `${k}=${String(v)}`).join(" ");
      lines.push(`${prefix}${last ? "   " : "│  "}  · ${event.name} ${detail}`);
    }
  }
  return lines.join("\n");
}

const KIND_COLOURS: Record<number, string> = { 1: "#8a94a6", 2: "#3b6fd8", 3: "#e08a1e" };
const escapeXml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The same trace as a waterfall picture (SVG): one row per span in tree order, its bar to scale, events as ticks, failures outlined in red. */
export function renderSvg(spans: ReceivedSpan[]): string {
  const rows = treeOrder(spans);
  const origin = traceStart(spans);
  const endAt = spans.reduce((max, s) => (s.end > max ? s.end : max), origin);
  const total = Math.max(1, Number(endAt - origin));
  const [labelWidth, barWidth, rowHeight, top] = [300, 560, 22, 34];
  const x = (ns: bigint) => labelWidth + (Number(ns - origin) / total) * barWidth;
  const parts = rows.map(({ span, depth }, i) => {
    const y = top + i * rowHeight;
    const failed = span.status === 2;
    const bar = `<rect x="${x(span.start).toFixed(1)}" y="${y + 4}" width="${Math.max(1.5, x(span.end) - x(span.start)).toFixed(1)}" height="${rowHeight - 8}" rx="2" fill="${KIND_COLOURS[span.kind] ?? "#999"}"${failed ? ' stroke="#d23" stroke-width="1.5"' : ""}/>`;
    const label = `<text x="${8 + depth * 14}" y="${y + rowHeight / 2 + 4}">${escapeXml(span.name)}</text>`;
    const duration = `<text x="${(x(span.end) + 4).toFixed(1)}" y="${y + rowHeight / 2 + 4}" class="ms">${(Number(span.end - span.start) / 1e6).toFixed(1)} ms</text>`;
    return `${label}${bar}${duration}`;
  });
  const height = top + rows.length * rowHeight + 28;
  const legend = `<text x="8" y="20" class="head">one run as the OTLP receiver got it: server spans blue, client spans orange, internal grey, failed outlined red</text>`;
  const axis = `<text x="${labelWidth}" y="${height - 10}" class="ms">0 ms</text><text x="${labelWidth + barWidth - 60}" y="${height - 10}" class="ms">${(total / 1e6).toFixed(0)} ms</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + barWidth + 70}" height="${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12"><style>text{fill:#222}.ms{fill:#666;font-size:10px}.head{font-size:12px;fill:#444}</style><rect width="100%" height="100%" fill="#fff"/>${legend}${parts.join("")}${axis}</svg>\n`;
}
