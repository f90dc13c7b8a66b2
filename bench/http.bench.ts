// requests/s of tools/list over HTTP: Stepgate's server (guards, session
// store, era routing) against a bare Hono + MCP SDK server doing the same
// tools/list with the same test tools, for both protocol eras.
//
//   node --import tsx bench/http.bench.ts [seconds=3] [concurrency=1,16] [rounds=3]
//
// A closed-loop client: N workers on an undici Pool of N connections, each
// sending its next request as soon as the previous reply is read in full.
// Each server runs alone in a child process on 127.0.0.1, so the client's
// work does not share an event loop (or a core) with the server's.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { startHttpServer } from "../src/http/server.js";
import { newSession } from "../src/session.js";
import { testFactory } from "../test/http/fixtures/test-factory.js";

const serveMode = process.argv[2] === "--serve" ? process.argv[3] : undefined;
const seconds = Number(process.argv[2] ?? 3);
const concurrencies = (process.argv[3] ?? "1,16").split(",").map(Number);
const rounds = Number(process.argv[4] ?? 3);
type Era = "2025-11-25" | "2026-07-28";

interface Target {
  name: string;
  url: string;
  close(): Promise<void>;
}

async function stepgate(): Promise<Target> {
  const server = await startHttpServer({ port: 0, factory: testFactory({ keepServerRefs: false }), idleMs: 600_000 });
  return { name: "stepgate", url: server.url, close: () => server.close() };
}

// What the SDK documents for Hono: a transport per 2025 session, the
// per-request handler for 2026; no guards, no idle reaping.
async function bare(): Promise<Target> {
  const factory = testFactory({ keepServerRefs: false });
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(() => factory.create(newSession()), { legacy: "reject" });
  const app = new Hono();
  app.all("/mcp", async (c) => {
    if (!(await isLegacyRequest(c.req.raw))) return modern.fetch(c.req.raw);
    const id = c.req.header("mcp-session-id");
    const known = id === undefined ? undefined : transports.get(id);
    if (known) return known.handleRequest(c.req.raw);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sid) => void transports.set(sid, transport),
    });
    await factory.create(newSession()).connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name: "bare Hono + SDK",
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await modern.close();
      await Promise.all([...transports.values()].map((t) => t.close()));
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

// Headers and body of one tools/list request; 2025 needs a session first.
async function prepare(pool: Pool, era: Era): Promise<{ headers: Record<string, string>; body: string }> {
  if (era === "2026-07-28") {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
    return { headers: { ...ACCEPT, "mcp-protocol-version": era, "mcp-method": "tools/list" }, body };
  }
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: era, capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  };
  const opened = await pool.request({ path: "/mcp", method: "POST", headers: ACCEPT, body: JSON.stringify(init) });
  await opened.body.text();
  const headers = { ...ACCEPT, "mcp-session-id": String(opened.headers["mcp-session-id"]), "mcp-protocol-version": era };
  const done = await pool.request({ path: "/mcp", method: "POST", headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  await done.body.text();
  return { headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) };
}

interface Result {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
}

async function measure(url: string, era: Era, concurrency: number, forSeconds = seconds): Promise<Result> {
  const origin = new URL(url).origin;
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let measuring = false;
  let stop = false;
  async function worker(): Promise<void> {
    const request = await prepare(pool, era);
    while (!stop) {
      const start = performance.now();
      const response = await pool.request({ path: "/mcp", method: "POST", ...request });
      const text = await response.body.text();
      if (response.statusCode !== 200 || !text.includes('"tools"')) throw new Error(`bad reply ${response.statusCode}: ${text.slice(0, 200)}`);
      if (measuring) latencies.push(performance.now() - start);
    }
  }
  const workers = Array.from({ length: concurrency }, worker);
  await new Promise((resolve) => setTimeout(resolve, 500)); // warm-up
  measuring = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, forSeconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

// Child mode: start one server, print its URL, run until killed.
async function serveChild(mode: string): Promise<void> {
  const target = mode === "bare" ? await bare() : await stepgate();
  process.stdout.write(`${target.url}\n`);
}

// Parent: a server in a child process, ended by its pid when done.
async function inChild(mode: "stepgate" | "bare"): Promise<Target> {
  const child = spawn(process.execPath, ["--import", "tsx", process.argv[1] as string, "--serve", mode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [url] = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value as string]);
  const name = mode === "bare" ? "bare Hono + SDK" : "stepgate";
  return {
    name,
    url: url as string,
    close: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

// Median of the rounds, so one noisy round (a GC, a busy neighbour) does not decide.
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const targets = [await inChild("stepgate"), await inChild("bare")];
  const rows: string[] = [];
  try {
    for (const era of ["2025-11-25", "2026-07-28"] as const) {
      for (const target of targets) await measure(target.url, era, 4, 1); // warm-up: JIT, tsx transforms
      for (const concurrency of concurrencies) {
        const results = new Map<Target, Result[]>(targets.map((t) => [t, []]));
        // Rounds alternate between the servers, so drift in machine load hits both alike.
        for (let round = 0; round < rounds; round++) {
          for (const target of targets) results.get(target)?.push(await measure(target.url, era, concurrency));
        }
        for (const [target, rs] of results) {
          const m = (pick: (r: Result) => number) => median(rs.map(pick));
          rows.push(
            `| ${target.name} | ${era} | ${concurrency} | ${m((r) => r.rps).toFixed(0)} | ${m((r) => r.p50).toFixed(2)} | ${m((r) => r.p99).toFixed(2)} | ${rs.map((r) => r.rps.toFixed(0)).join(" / ")} |`,
          );
          process.stderr.write(`${rows.at(-1)}\n`);
        }
      }
    }
  } finally {
    await Promise.all(targets.map((t) => t.close()));
  }
  process.stdout.write(
    [
      `tools/list over HTTP, ${rounds} alternating rounds of ${seconds} s per row (medians), Node ${process.version}, each server in its own child process`,
      "",
      "| server | protocol | concurrency | req/s | p50 ms | p99 ms | req/s per round |",
      "|---|---|---|---|---|---|---|",
      ...rows,
      "",
    ].join("\n"),
  );
}

if (serveMode !== undefined) await serveChild(serveMode);
else await main();
