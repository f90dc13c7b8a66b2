// Throughput of HTTP mode as users run it: the built CLI `stepgate --http`
// (guards, session store, era routing, the real MCP factory and RunRegistry,
// ledger files on disk) against a bare Hono + MCP SDK server answering the
// same tools/list with the same tool definitions, for both protocol eras;
// and complete small runs (start a one-step stepfile, submit a passing
// output) through Stepgate.
//
//   node --import tsx bench/http.bench.ts [seconds=3] [concurrency=1,16]
//
// A closed-loop client: N workers on an undici Pool of N connections, each
// sending its next request as soon as the previous reply is read in full.
// Each server runs alone in a child process on 127.0.0.1, so the client's
// work does not share an event loop with the server's.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Pool } from "undici";
import { createMcpHandler, isLegacyRequest, Server, WebStandardStreamableHTTPServerTransport, type Tool } from "@modelcontextprotocol/server";
import { startCliServer, type CliServer } from "../test/http/fixtures/cli-server.js";
import { messagesOf } from "../test/http/fixtures/harness.js";
import { allowed, fiveGateStepfile, machineLine, passingOutput } from "./support.js";

type Era = "2025-11-25" | "2026-07-28";
const ERAS: readonly Era[] = ["2025-11-25", "2026-07-28"];
const STEPFILE_ID = "five-gates";

// The bare server: what the SDK documents for Hono, a transport per 2025
// session and the per-request handler for 2026, with no guards and no idle
// reaping, listing exactly the tools Stepgate lists (read from a file).
async function serveBare(toolsFile: string): Promise<void> {
  const tools = JSON.parse(readFileSync(toolsFile, "utf8")) as Tool[];
  const create = (): Server => {
    const server = new Server({ name: "bare", version: "0.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({ tools }));
    return server;
  };
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(create, { legacy: "reject" });
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
    await create().connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
}

interface Target {
  name: string;
  url: string;
  close(): Promise<void>;
}

/** This file in `--serve-bare` mode in a child process; ended by its pid when done. */
async function startBare(toolsFile: string): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", process.argv[1]!, "--serve-bare", toolsFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error("the bare server exited before printing its URL");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { name: "bare Hono + SDK", url: String(first.value), close: async () => void (child.kill(), await exited) };
}

const ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One client's way of sending requests in an era: a 2025 client opens its session first. */
interface Caller {
  send(method: string, params: Record<string, unknown>, toolName?: string): Promise<Record<string, unknown>>;
}

async function post(pool: Pool, headers: Record<string, string>, body: unknown): Promise<{ headers: Record<string, unknown>; messages: unknown[] }> {
  const response = await pool.request({ path: "/mcp", method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 300)}`);
  return { headers: response.headers, messages: text === "" ? [] : messagesOf(text) };
}

async function caller(pool: Pool, era: Era): Promise<Caller> {
  let id = 0;
  const unwrap = (messages: unknown[]): Record<string, unknown> => {
    const reply = messages[0] as { result?: Record<string, unknown>; error?: unknown } | undefined;
    if (!reply?.result) throw new Error(`no result: ${JSON.stringify(reply).slice(0, 300)}`);
    return reply.result;
  };
  if (era === "2026-07-28") {
    return {
      async send(method, params, toolName) {
        const headers: Record<string, string> = { ...ACCEPT, "mcp-protocol-version": era, "mcp-method": method };
        if (toolName !== undefined) headers["mcp-name"] = toolName;
        return unwrap((await post(pool, headers, { jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: META } })).messages);
      },
    };
  }
  const init = { protocolVersion: era, capabilities: {}, clientInfo: { name: "bench", version: "0" } };
  const opened = await post(pool, ACCEPT, { jsonrpc: "2.0", id: ++id, method: "initialize", params: init });
  const headers = { ...ACCEPT, "mcp-session-id": String(opened.headers["mcp-session-id"]), "mcp-protocol-version": era };
  await post(pool, headers, { jsonrpc: "2.0", method: "notifications/initialized" });
  return { send: async (method, params) => unwrap((await post(pool, headers, { jsonrpc: "2.0", id: ++id, method, params })).messages) };
}

/** One unit of work: a tools/list, or a whole run (start, then a passing submit). */
type Work = (c: Caller) => Promise<void>;

const toolsList: Work = async (c) => {
  const result = await c.send("tools/list", {});
  if (!Array.isArray(result["tools"])) throw new Error("tools/list answered without tools");
};

const wholeRun: Work = async (c) => {
  const started = await c.send("tools/call", { name: STEPFILE_ID, arguments: { allowed } }, STEPFILE_ID);
  const run = (started["structuredContent"] as { run?: string } | undefined)?.run;
  if (typeof run !== "string") throw new Error(`no run id: ${JSON.stringify(started).slice(0, 300)}`);
  const done = await c.send("tools/call", { name: "stepgate_submit", arguments: { run, output: passingOutput } }, "stepgate_submit");
  const state = (done["structuredContent"] as { state?: string } | undefined)?.state;
  if (state !== "finished") throw new Error(`run not finished: ${JSON.stringify(done).slice(0, 300)}`);
};

interface Result {
  units: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function measure(url: string, era: Era, concurrency: number, work: Work, forSeconds: number): Promise<Result> {
  const pool = new Pool(new URL(url).origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let measuring = false;
  let stop = false;
  async function worker(): Promise<void> {
    const c = await caller(pool, era);
    while (!stop) {
      const start = performance.now();
      await work(c);
      if (measuring) latencies.push(performance.now() - start);
    }
  }
  const workers = Promise.all(Array.from({ length: concurrency }, worker));
  // Fail fast: a worker error ends the measurement instead of waiting it out.
  const failed = workers.then(() => undefined);
  await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, 500))]); // warm-up
  measuring = true;
  const started = performance.now();
  await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, forSeconds * 1000))]);
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  await workers;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { units: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const concurrencies = (process.argv[3] ?? "1,16").split(",").map(Number);
  // Read before any server starts, for the caveat in the interpretation.
  const busy = loadavg()[0]! > cpus().length;
  const dir = mkdtempSync(join(tmpdir(), "stepgate-http-bench-"));
  let stepgate: CliServer | undefined;
  let bare: Target | undefined;
  try {
    const stepfile = join(dir, `${STEPFILE_ID}.stepfile.yaml`);
    writeFileSync(stepfile, fiveGateStepfile(STEPFILE_ID, 0));
    stepgate = await startCliServer(["--ledger-dir", join(dir, "ledgers"), stepfile]);
    // The bare server lists byte-for-byte the tools Stepgate lists, so both answer the same reply.
    const pool = new Pool(new URL(stepgate.url).origin);
    const tools = (await (await caller(pool, "2025-11-25")).send("tools/list", {}))["tools"];
    await pool.close();
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(tools));
    bare = await startBare(toolsFile);
    const targets: Target[] = [{ name: "stepgate --http", url: stepgate.url, close: async () => undefined }, bare];

    const listRows: string[] = [];
    const list = new Map<string, Result>();
    for (const era of ERAS) {
      for (const concurrency of concurrencies) {
        for (const target of targets) {
          await measure(target.url, era, 4, toolsList, 1); // warm-up: JIT and tsx transforms
          const r = await measure(target.url, era, concurrency, toolsList, seconds);
          list.set(`${target.name} ${era} ${concurrency}`, r);
          listRows.push(`| ${target.name} | ${era} | ${concurrency} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.units} |`);
          process.stderr.write(`${listRows.at(-1)}\n`);
        }
      }
    }
    const runRows: string[] = [];
    const runs = new Map<string, Result>();
    for (const era of ERAS) {
      for (const concurrency of concurrencies) {
        await measure(stepgate.url, era, 4, wholeRun, 1);
        const r = await measure(stepgate.url, era, concurrency, wholeRun, seconds);
        runs.set(`${era} ${concurrency}`, r);
        runRows.push(`| ${era} | ${concurrency} | ${r.perSecond.toFixed(0)} | ${(2 * r.perSecond).toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.units} |`);
        process.stderr.write(`${runRows.at(-1)}\n`);
      }
    }

    const lo = concurrencies[0]!;
    const hi = concurrencies.at(-1)!;
    const ratio = (era: Era, c: number) => list.get(`stepgate --http ${era} ${c}`)!.perSecond / list.get(`bare Hono + SDK ${era} ${c}`)!.perSecond;
    const pct = (x: number) => `${Math.round(100 * x)}%`;
    const runVsList = (era: Era, c: number) => list.get(`stepgate --http ${era} ${c}`)!.perSecond / runs.get(`${era} ${c}`)!.perSecond;
    const best = [...runs.entries()].sort((a, b) => b[1].perSecond - a[1].perSecond)[0]!;

    console.log("## HTTP mode: tools/list and whole runs per second\n");
    console.log(
      `Method: the built CLI, \`node bin/stepgate.js --http 0 --ledger-dir <tmp> ${STEPFILE_ID}.stepfile.yaml\` (the one-step, five-gate stepfile of the submit bench; ledger files written to disk), against a bare Hono + MCP SDK server in its own process (a transport per 2025 session, \`createMcpHandler\` for 2026-07-28, no guards, no idle reaping) whose tools/list returns exactly the tools Stepgate lists. A closed-loop client on an undici pool of as many connections as workers; each 2025 worker opens its own session first. A whole run is two tools/call requests: start \`${STEPFILE_ID}\`, then \`stepgate_submit\` with an output that passes all five gates and finishes the run. ${seconds} s per row after a 1 s warm-up; latencies are per request (tools/list) or per run.\n`,
    );
    console.log(machineLine() + "\n");
    console.log("| server | protocol | concurrency | tools/list per s | p50 ms | p99 ms | requests |");
    console.log("|---|---|---:|---:|---:|---:|---:|");
    for (const row of listRows) console.log(row);
    console.log("\n| protocol | concurrency | whole runs per s | requests per s | p50 ms per run | p99 ms per run | runs |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const row of runRows) console.log(row);
    console.log(
      `\nInterpretation: Stepgate serves tools/list at ${ERAS.map((era) => `${pct(ratio(era, lo))} (concurrency ${lo}) and ${pct(ratio(era, hi))} (concurrency ${hi}) of the bare server's rate over ${era}`).join(", and at ")}; what it adds per request is the Host, Origin, body-limit and JSON guards, one JSON parse shared with the SDK, the session store and the era routing, and for 2026-07-28 a server built by the factory per request for the shared session. A whole run costs about ${runVsList("2025-11-25", lo).toFixed(1)} tools/list over 2025-11-25 at concurrency ${lo} (two requests, gate evaluation, and ledger records hashed and appended to a file), and peaks at ${best[1].perSecond.toFixed(0)} runs/s (${best[0].replace(" ", ", concurrency ")}). Even the slowest row is far above what agents need: a model takes seconds to produce each step's output.${busy ? " The machine was busy when this ran (1-minute load average above its core count) and the client shares its cores with both servers, so differences of a few tens of percent between rows are within the noise." : ""}`,
    );
  } finally {
    await stepgate?.stop();
    await bare?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--serve-bare") await serveBare(process.argv[3]!);
else await main();
