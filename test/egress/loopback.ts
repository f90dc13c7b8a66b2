// Real node:http servers on loopback for the egress tests: each records what
// reached it, so a test can prove a refused request never arrived.
import { afterEach } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenLoopback } from "../support/listen.js";
import type { EgressPolicy } from "../../src/egress/index.js";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>` (or `http://[::1]:<port>`). */
  origin: string;
  /** URL.host, e.g. `127.0.0.1:<port>`. */
  host: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse, server: Loopback) => void;

export async function startLoopback(handler: Handler, address = "127.0.0.1"): Promise<Loopback> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(Object.assign(req, { body }), res, loopback);
    });
  });
  const listening = await listenLoopback(server, address);
  const loopback: Loopback = { ...listening, received };
  return loopback;
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/** A policy for tests: no real sleeping, waits and retry records captured. */
export function testPolicy(hosts: string[], overrides: Partial<EgressPolicy> = {}): EgressPolicy & { waits: number[]; retries: unknown[] } {
  const waits: number[] = [];
  const retries: unknown[] = [];
  return {
    allowedHosts: new Set(hosts),
    userAgent: "stepgate/0.0.0-test (mailto:ops@example.org)",
    timeoutMs: 2_000,
    maxBytes: 1_000_000,
    env: {},
    onRetry: (r) => retries.push(r),
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
    waits,
    retries,
  };
}

export const text = (body: Uint8Array): string => Buffer.from(body).toString("utf8");

/**
 * Servers (and server-side timers) that close after each test of the file
 * that calls this at its top level.
 */
export function loopbackPerTest(): { serve: typeof startLoopback; repeat: (fn: () => void, everyMs: number) => NodeJS.Timeout } {
  const servers: Loopback[] = [];
  const timers: NodeJS.Timeout[] = [];
  afterEach(async () => {
    timers.splice(0).forEach(clearInterval);
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    serve: async (handler, address) => {
      const s = await startLoopback(handler, address);
      servers.push(s);
      return s;
    },
    repeat: (fn, everyMs) => {
      const t = setInterval(fn, everyMs);
      timers.push(t);
      return t;
    },
  };
}
