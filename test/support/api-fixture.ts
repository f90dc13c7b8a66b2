// A plain HTTP API on loopback that answers only the routes it is given, in
// the shape conformance cases declare them, and records every request so a
// test can check what actually went over the wire.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenLoopback, readBody } from "./listen.js";

export interface ApiAnswer {
  status?: number;
  /** Values may use {origin}, {host} and {port}: the fixture's own, known only once it listens. */
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  /** Wait this long before answering (tests of request time limits). */
  delay_ms?: number;
  /** Answer a JSON object of exactly this many bytes (tests of response size limits). */
  json_bytes?: number;
}

export interface ApiRoute {
  method: string;
  /** Exact path including any query string. */
  path: string;
  /** Given in order; the last one repeats. */
  answers: ApiAnswer[];
  /** 401 unless `Authorization: Bearer <bearer>`. */
  bearer?: string;
  /** 401 unless this header has this value. */
  key?: { header: string; value: string };
}

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Names lower-case, as node gives them. */
  headers: Record<string, string>;
  body: string;
}

export interface ApiFixture {
  origin: string;
  host: string;
  port: number;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startApiFixture(routes: readonly ApiRoute[]): Promise<ApiFixture> {
  const received: ReceivedRequest[] = [];
  const served = new Map<ApiRoute, number>();
  let self = { origin: "", host: "", port: 0 };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { "content-type": "application/json" }, JSON.stringify({ error: String(error) }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    received.push({ method, path, headers: flattenHeaders(req), body: body.toString("utf8") });

    const route = routes.find((r) => r.method.toUpperCase() === method && r.path === path);
    if (!route) return send(res, 404, { "content-type": "application/json" }, JSON.stringify({ error: "not found" }));
    if (!authorised(route, req)) return send(res, 401, { "content-type": "application/json" }, JSON.stringify({ error: "unauthorised" }));

    const index = served.get(route) ?? 0;
    served.set(route, index + 1);
    const answer = route.answers[Math.min(index, route.answers.length - 1)] ?? {};
    if (answer.delay_ms) await new Promise((resolve) => setTimeout(resolve, answer.delay_ms));

    const headers: Record<string, string> = {};
    let payload: string | undefined;
    if (answer.json_bytes !== undefined) {
      payload = paddedJson(answer.json_bytes);
      headers["content-type"] = "application/json";
    } else if (answer.json !== undefined) {
      payload = JSON.stringify(answer.json);
      headers["content-type"] = "application/json";
    } else if (answer.text !== undefined) {
      payload = answer.text;
      headers["content-type"] = "text/plain; charset=utf-8";
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = fillSelf(value);
    send(res, answer.status ?? 200, headers, payload);
  }

  function fillSelf(value: string): string {
    return value.replaceAll("{origin}", self.origin).replaceAll("{host}", self.host).replaceAll("{port}", String(self.port));
  }

  const listening = await listenLoopback(server);
  self = { origin: listening.origin, host: listening.host, port: listening.port };
  return { ...self, received, close: listening.close };
}

function authorised(route: ApiRoute, req: IncomingMessage): boolean {
  if (route.bearer !== undefined && req.headers.authorization !== `Bearer ${route.bearer}`) return false;
  if (route.key !== undefined && req.headers[route.key.header.toLowerCase()] !== route.key.value) return false;
  return true;
}

export function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string): void {
  res.writeHead(status, headers);
  res.end(body);
}

/** `{"pad":"xxx…"}` of exactly `bytes` bytes (or the smallest such object when `bytes` is smaller). */
function paddedJson(bytes: number): string {
  const overhead = JSON.stringify({ pad: "" }).length;
  return JSON.stringify({ pad: "x".repeat(Math.max(0, bytes - overhead)) });
}
