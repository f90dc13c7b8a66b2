// Throughput of HTTP mode as users run it: the built CLI `stepgate --http`
// (guards, session store, era routing, the real MCP factory and RunRegistry,
// ledger files on disk) against a bare Hono + MCP SDK server answering the
// same tools/list with the same tool definitions, for both protocol eras;
// and against a plain node:http server writing the very bytes Stepgate
// answered (the floor); and complete small runs (start a one-step
// stepfile, submit a passing output) through Stepgate.
//
//   node --import tsx bench/http.bench.ts [--quick]
//
// A closed-loop client: N workers on an undici Pool of N connections, each
// sending its next request as soon as the previous reply is read in full.
// Each server runs alone in a child process on 127.0.0.1, so the client's
// work does not share an event loop with the server's.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
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
import { allowed, fiveGateStepfile, generatedStepfile, machineLine, passingOutput, processRssMb, quick, times, verdict } from "./support.js";

type Era = "2025-11-25" | "2026-07-28";
const ERAS: readonly Era[] = ["2025-11-25", "2026-07-28"];
const STEPFILE_ID = "five-gates";
/** Stepfiles served besides five-gates, so tools/list is the size of a real catalog (17-20 stepfiles). */
const MORE_STEPFILES = 17;
/** Whole runs per second in docs/performance.md before issue 9 (2026-11-30, the same machine): the baseline of the 2x target. */
const RUNS_BEFORE: Record<string, number> = { "2025-11-25 1": 503, "2025-11-25 16": 773, "2026-07-28 1": 473, "2026-07-28 16": 795 };

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

// The floor: node:http answering every request with the bytes (and content
// type) Stepgate answered to a tools/list, without reading them: what any
// server on this machine's Node must spend at least.
async function serveFloor(answerFile: string): Promise<void> {
  const { contentType, body } = JSON.parse(readFileSync(answerFile, "utf8")) as { contentType: string; body: string };
  const bytes = Buffer.from(body);
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": contentType, "content-length": bytes.length });
      res.end(bytes);
    });
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`));
}

interface Target {
  name: string;
  url: string;
  pid: number | undefined;
  close(): Promise<void>;
}

/** This file in `--serve-bare` or `--serve-floor` mode in a child process; ended by its pid when done. */
async function startChild(name: string, mode: string, file: string): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", process.argv[1]!, mode, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error(`the ${name} server exited before printing its URL`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { name, url: String(first.value), pid: child.pid, close: async () => void (child.kill(), await exited) };
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

/** The floor's client: the same request and the same parsing of the answer, no session to open. */
async function floorCaller(pool: Pool): Promise<Caller> {
  let id = 0;
  return {
    async send(method, params) {
      const reply = (await post(pool, ACCEPT, { jsonrpc: "2.0", id: ++id, method, params })).messages[0] as { result?: Record<string, unknown> } | undefined;
      if (!reply?.result) throw new Error("the floor answered without a result");
      return reply.result;
    },
  };
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

async function measure(url: string, era: Era | "floor", concurrency: number, work: Work, forSeconds: number): Promise<Result> {
  const pool = new Pool(new URL(url).origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let measuring = false;
  let stop = false;
  async function worker(): Promise<void> {
    const c = era === "floor" ? await floorCaller(pool) : await caller(pool, era);
    while (!stop) {
      const start = performance.now();
      await work(c);
      if (measuring) latencies.push(performance.now() - start);
    }
  }
  const workers = Promise.all(Array.from({ length: concurrency }, worker));
  // Fail fast: a worker error ends the measurement instead of waiting it out.
  const failed = workers.then(() => undefined);
  await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, quick ? 100 : 500))]); // warm-up
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
  const seconds = quick ? 0.3 : 3;
  const listConcurrencies = quick ? [2] : [1, 10];
  const runConcurrencies = quick ? [2] : [1, 16];
  // Read before any server starts, for the caveat in the interpretation.
  const busy = loadavg()[0]! > cpus().length;
  const dir = mkdtempSync(join(tmpdir(), "stepgate-http-bench-"));
  let stepgate: CliServer | undefined;
  const children: Target[] = [];
  try {
    const stepfile = join(dir, `${STEPFILE_ID}.stepfile.yaml`);
    writeFileSync(stepfile, fiveGateStepfile(STEPFILE_ID, 0));
    const more = Array.from({ length: MORE_STEPFILES }, (_, i) => {
      const path = join(dir, `gen-${i + 1}.stepfile.yaml`);
      writeFileSync(path, generatedStepfile(`gen-${i + 1}`));
      return path;
    });
    stepgate = await startCliServer(["--ledger-dir", join(dir, "ledgers"), stepfile, ...more]);
    // The bare server lists the tools Stepgate lists; the floor answers the very bytes Stepgate answered.
    const pool = new Pool(new URL(stepgate.url).origin);
    const session = await caller(pool, "2025-11-25");
    const tools = (await session.send("tools/list", {}))["tools"];
    const raw = await rawToolsList(pool);
    await pool.close();
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(tools));
    const answerFile = join(dir, "answer.json");
    writeFileSync(answerFile, JSON.stringify(raw));
    children.push(await startChild("node:http floor (same bytes)", "--serve-floor", answerFile), await startChild("bare Hono + SDK", "--serve-bare", toolsFile));
    const own: Target = { name: "stepgate --http", url: stepgate.url, pid: stepgate.child.pid, close: async () => undefined };
    // The floor first at each concurrency, so the share column can be filled as rows go.
    const targets = [children[0]!, own, children[1]!];

    const listRows: string[] = [];
    const list = new Map<string, Result>();
    const peak = (t: Target) => (t.pid === undefined ? "-" : (processRssMb(t.pid)?.peak.toFixed(1) ?? "-"));
    for (const era of ERAS) {
      for (const concurrency of listConcurrencies) {
        for (const target of targets) {
          // The floor speaks no protocol era; it is measured once, beside the 2025-11-25 rows.
          if (target === children[0] && era !== "2025-11-25") continue;
          const how = target === children[0] ? "floor" : era;
          await measure(target.url, how, 4, toolsList, quick ? 0.1 : 1); // warm-up: JIT and tsx transforms
          const r = await measure(target.url, how, concurrency, toolsList, seconds);
          list.set(`${target.name} ${era} ${concurrency}`, r);
          // One floor for both eras: the same request rate, whatever bytes the era answers with.
          const floor = list.get(`${children[0]!.name} 2025-11-25 ${concurrency}`);
          const share = floor ? `${Math.round((100 * r.perSecond) / floor.perSecond)}%` : "-";
          const target50 = target === own && concurrency === listConcurrencies.at(-1) && floor ? verdict(r.perSecond >= floor.perSecond / 2, ">= 50% of the floor") : "-";
          listRows.push(`| ${target.name} | ${target === children[0] ? "-" : era} | ${concurrency} | ${r.perSecond.toFixed(0)} | ${share} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.units} | ${peak(target)} | ${target50} |`);
          process.stderr.write(`${listRows.at(-1)}\n`);
        }
      }
    }
    const runRows: string[] = [];
    const runs = new Map<string, Result>();
    for (const era of ERAS) {
      for (const concurrency of runConcurrencies) {
        await measure(stepgate.url, era, 4, wholeRun, quick ? 0.1 : 1);
        const r = await measure(stepgate.url, era, concurrency, wholeRun, seconds);
        runs.set(`${era} ${concurrency}`, r);
        const before = RUNS_BEFORE[`${era} ${concurrency}`];
        const ratio = before === undefined ? "-" : times(r.perSecond / before);
        const target = before === undefined ? "-" : verdict(r.perSecond >= 2 * before, `>= 2x (${2 * before})`);
        runRows.push(`| ${era} | ${concurrency} | ${r.perSecond.toFixed(0)} | ${(2 * r.perSecond).toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.units} | ${before ?? "-"} | ${ratio} | ${target} |`);
        process.stderr.write(`${runRows.at(-1)}\n`);
      }
    }

    const lo = listConcurrencies[0]!;
    const hi = listConcurrencies.at(-1)!;
    const ratio = (era: Era, c: number, other: string) => list.get(`stepgate --http ${era} ${c}`)!.perSecond / list.get(`${other} ${era} ${c}`)!.perSecond;
    const pct = (x: number) => `${Math.round(100 * x)}%`;
    const best = [...runs.entries()].sort((a, b) => b[1].perSecond - a[1].perSecond)[0]!;

    console.log("## HTTP mode: tools/list and whole runs per second\n");
    console.log(
      `Method: the built CLI, \`node bin/stepgate.js --http 0 --ledger-dir <tmp> ${STEPFILE_ID}.stepfile.yaml <${MORE_STEPFILES} generated stepfiles>\` (${MORE_STEPFILES + 1} stepfiles served, so tools/list is ${raw.body.length} bytes; ledger files written to disk), against two servers in their own processes: a plain \`node:http\` server that answers every request with the exact bytes and content type Stepgate answered to a 2025-11-25 tools/list (the floor), and a bare Hono + MCP SDK server (a transport per 2025 session, \`createMcpHandler\` for 2026-07-28, no guards, no idle reaping) whose tools/list returns exactly the tools Stepgate lists. A closed-loop client on an undici pool of as many connections as workers, parsing every answer; each 2025 worker opens its own session first. A whole run is two tools/call requests: start \`${STEPFILE_ID}\`, then \`stepgate_submit\` with an output that passes all five gates and finishes the run. ${seconds} s per row after a warm-up; latencies are per request (tools/list) or per run. Peak RSS is each server's VmHWM after its row (the floor and the bare server run this file under tsx, which adds its own tens of MB).\n`,
    );
    console.log(machineLine() + "\n");
    console.log("| server | protocol | connections | tools/list per s | share of the floor | p50 ms | p99 ms | requests | peak RSS MB | target |");
    console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const row of listRows) console.log(row);
    console.log("\n| protocol | connections | whole runs per s | requests per s | p50 ms per run | p99 ms per run | runs | runs per s before issue 9 | ratio | target |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const row of runRows) console.log(row);
    console.log(
      `\nInterpretation: Stepgate serves tools/list at ${pct(ratio("2025-11-25", lo, children[0]!.name))} (${lo} connection${lo === 1 ? "" : "s"}) and ${pct(ratio("2025-11-25", hi, children[0]!.name))} (${hi}) of the floor's rate over 2025-11-25, at ${pct(list.get(`stepgate --http 2026-07-28 ${lo}`)!.perSecond / list.get(`${children[0]!.name} 2025-11-25 ${lo}`)!.perSecond)} and ${pct(list.get(`stepgate --http 2026-07-28 ${hi}`)!.perSecond / list.get(`${children[0]!.name} 2025-11-25 ${hi}`)!.perSecond)} over 2026-07-28, and at ${pct(ratio("2025-11-25", hi, "bare Hono + SDK"))} and ${pct(ratio("2026-07-28", hi, "bare Hono + SDK"))} of the bare SDK server's rate (${hi} connections). What the floor does not do and Stepgate does is run every request through its Hono chain (Host, Origin, bearer token when set, body limit, JSON depth and parse), classify it with the SDK's classifier and look up the session; a plain tools/list is then written from bytes kept per catalog version, inside the chain after every guard (src/http/tools-list-cache.ts), where the bare server validates it in the SDK transport and, over 2026-07-28, builds a server per request. Whole runs peak at ${best[1].perSecond.toFixed(0)} runs/s (${best[0].replace(" ", ", connections ")}); each is two requests, gate evaluation, and ledger records hashed and appended to a file.${busy ? " The machine was busy when this ran (1-minute load average above its core count) and the client shares its cores with the servers, so differences of a few tens of percent between rows are within the noise." : ""}`,
    );
  } finally {
    await stepgate?.stop();
    for (const child of children) await child.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Stepgate's tools/list answer as sent: body bytes and content type, for the floor to repeat. */
async function rawToolsList(pool: Pool): Promise<{ contentType: string; body: string }> {
  const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } };
  const opened = await pool.request({ path: "/mcp", method: "POST", headers: ACCEPT, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: init }) });
  await opened.body.text();
  const headers = { ...ACCEPT, "mcp-session-id": String(opened.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
  await (await pool.request({ path: "/mcp", method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).body.text();
  const answer = await pool.request({ path: "/mcp", method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }) });
  return { contentType: String(answer.headers["content-type"]), body: await answer.body.text() };
}

if (process.argv[2] === "--serve-bare") await serveBare(process.argv[3]!);
else if (process.argv[2] === "--serve-floor") await serveFloor(process.argv[3]!);
else await main();
