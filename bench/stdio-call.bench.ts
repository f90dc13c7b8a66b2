// stepgate_call over stdio as a desktop client makes it: an MCP client
// asks the built CLI to call an OpenAPI operation on a loopback API, and
// the round trip is set against a bare undici request to the same API from
// this process (the floor). Then memory: 1,000 runs started and left idle
// in one server. Run with
//   node --import tsx bench/stdio-call.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "undici";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { allowed, benchEnvironment, fiveGateStepfile, machineLine, median, oneCallStepfile, percentile, processRssMb, quick, us, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const calls = quick ? 5 : 2000;
const warmups = quick ? 1 : 200;
const idleRuns = quick ? 20 : 1000;

const BODY = JSON.stringify({ id: "K-1", name: "an item", tags: ["a", "b", "c"], price: 12.5, notes: "x".repeat(400) });
const api = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
  res.end(BODY);
});
await new Promise<void>((done) => api.listen(0, "127.0.0.1", done));
const origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

const callStepfile = oneCallStepfile("call-bench", "the stdio call bench", origin);

const dir = mkdtempSync(join(tmpdir(), "stepgate-stdio-call-"));

async function connect(args: string[]): Promise<{ client: Client; pid: number }> {
  const client = new Client({ name: "stdio-call-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", join(dir, "ledgers"), ...args], env: benchEnvironment(), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`stepgate did not start: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return { client, pid: transport.pid! };
}

async function undiciOnce(): Promise<number> {
  const started = performance.now();
  const res = await request(`${origin}/item`);
  await res.body.arrayBuffer();
  return performance.now() - started;
}

try {
  const callFile = join(dir, "call-bench.stepfile.yaml");
  writeFileSync(callFile, callStepfile);
  const { client } = await connect(["--calls-per-step", String(calls + warmups + 10), callFile]);
  const started = await client.callTool({ name: "call-bench", arguments: {} });
  const run = (started.structuredContent as { run?: string }).run;
  if (typeof run !== "string") throw new Error(`the run did not start: ${JSON.stringify(started).slice(0, 300)}`);
  const callOnce = async (): Promise<number> => {
    const t = performance.now();
    const reply = await client.callTool({ name: "stepgate_call", arguments: { run, operation: "getItem", arguments: {} } });
    const elapsed = performance.now() - t;
    if (reply.isError) throw new Error(`stepgate_call failed: ${JSON.stringify(reply).slice(0, 300)}`);
    return elapsed;
  };
  for (let i = 0; i < warmups; i++) {
    await undiciOnce();
    await callOnce();
  }
  // The two alternate call by call, so drift hits both alike.
  const floor: number[] = [];
  const viaStepgate: number[] = [];
  for (let i = 0; i < calls; i++) {
    floor.push(await undiciOnce());
    viaStepgate.push(await callOnce());
  }
  await client.close();

  // Memory: runs started and never submitted, as a client that walks away leaves them.
  const five = join(dir, "five-gates.stepfile.yaml");
  writeFileSync(five, fiveGateStepfile("five-gates", 2));
  const idle = await connect([five]);
  await idle.client.listTools();
  await idle.client.callTool({ name: "five-gates", arguments: { allowed } }); // code paths warm before the baseline
  const before = processRssMb(idle.pid);
  for (let i = 0; i < idleRuns; i++) await idle.client.callTool({ name: "five-gates", arguments: { allowed } });
  const after = processRssMb(idle.pid);
  await idle.client.close();

  const overhead = median(viaStepgate) - median(floor);
  const growth = before && after ? after.now - before.now : undefined;
  console.log("## stdio: stepgate_call round trip, and runs left idle\n");
  console.log(
    `Method: a node:http API on 127.0.0.1 answers GET /item with ${BODY.length} bytes of JSON. "undici request" is a bare request from the bench process (the floor); "stepgate_call" is an MCP client in the bench process calling \`stepgate_call\` for that operation over stdio on the built CLI (\`node bin/stepgate.js --ledger-dir <tmp> call-bench.stepfile.yaml\`), which makes the same request through egress, records it in the ledger file and answers. ${calls} calls each after ${warmups} warm-up ones, alternating. Memory: a second server with the five-gate stepfile, its RSS (VmRSS, Linux /proc) after one run and again after ${idleRuns} more runs started and left idle (never submitted).\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| measurement | samples | median µs | p90 µs | p99 µs | above the floor, median µs | target |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  console.log(`| undici request (the floor) | ${floor.length} | ${us(median(floor))} | ${us(percentile(floor, 90))} | ${us(percentile(floor, 99))} | - | - |`);
  console.log(`| stepgate_call over stdio | ${viaStepgate.length} | ${us(median(viaStepgate))} | ${us(percentile(viaStepgate, 90))} | ${us(percentile(viaStepgate, 99))} | ${us(overhead)} | ${verdict(overhead <= 0.5, "<= 500 µs above the floor")} |`);
  console.log("\n| measurement | RSS MB before | RSS MB after | growth MB | per run KB | target |");
  console.log("|---|---:|---:|---:|---:|---|");
  if (before && after && growth !== undefined) {
    console.log(`| ${idleRuns} runs started and left idle | ${before.now.toFixed(1)} | ${after.now.toFixed(1)} | ${growth.toFixed(1)} | ${((growth * 1024) / idleRuns).toFixed(1)} | ${verdict(growth <= 60, "<= 60 MB growth")} |`);
  } else console.log(`| ${idleRuns} runs started and left idle | - | - | - | - | not measured: no /proc on this system |`);
  console.log(
    `\nInterpretation: a stepgate_call round trip takes ${us(median(viaStepgate))} µs at the median against ${us(median(floor))} µs for the request alone, so everything Stepgate adds (JSON-RPC over two pipes, the MCP client and server, argument checks, egress bookkeeping, the ledger record hashed and appended to a file) costs ${us(overhead)} µs.${growth !== undefined ? ` Each idle run holds about ${((growth * 1024) / idleRuns).toFixed(0)} KB (its state, ledger chain head and the reply sent), with no toolbox work done yet.` : ""}`,
  );
} finally {
  api.close();
  rmSync(dir, { recursive: true, force: true });
}
