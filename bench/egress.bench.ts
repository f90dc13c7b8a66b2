// How much egress() costs over a bare undici request to the same loopback
// server: host checks, credential placement, header handling, the deadline
// timer, the capped body read and the retry bookkeeping.
// Run: node --import tsx bench/egress.bench.ts [requests]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { egress, userAgent } from "../src/egress/index.js";

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 200;
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });

const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(BODY);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
const url = `http://${host}/items?q=a`;

const policy = {
  allowedHosts: new Set([host]),
  userAgent: userAgent("bench"),
  timeoutMs: 10_000,
  maxBytes: 10_485_760,
  env: { BENCH_API_KEY: "bench-key" },
};
const credential = { name: "bench", kind: "api_key", hosts: [host], placement: { in: "header", name: "x-api-key" } } as const;

const variants: Record<string, () => Promise<unknown>> = {
  "undici request": async () => {
    const res = await request(url, { headers: { "user-agent": policy.userAgent, "x-api-key": "bench-key" } });
    return res.body.arrayBuffer();
  },
  "egress()": () => egress({ operation: "bench", method: "GET", url, credential }, policy),
};

/** Alternates the variants request by request, so drift (GC, CPU frequency) hits both alike. */
async function measure(): Promise<Record<string, number[]>> {
  const entries = Object.entries(variants);
  for (let i = 0; i < WARMUP; i++) for (const [, run] of entries) await run();
  const times: Record<string, number[]> = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let i = 0; i < N; i++) {
    for (const [name, run] of entries) {
      const t0 = performance.now();
      await run();
      times[name]!.push(performance.now() - t0);
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);
  return times;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (v: number) => `${v.toFixed(3)} ms`;

const results = await measure();
const base = results["undici request"]!;
const ours = results["egress()"]!;

console.log(`egress overhead over ${N} sequential GETs to ${host} (Node ${process.version})\n`);
console.log("| variant | p50 | p99 |");
console.log("|---|---|---|");
for (const [name, times] of Object.entries(results)) console.log(`| ${name} | ${ms(pct(times, 50))} | ${ms(pct(times, 99))} |`);
console.log(`| overhead | ${ms(pct(ours, 50) - pct(base, 50))} | ${ms(pct(ours, 99) - pct(base, 99))} |`);

server.closeAllConnections();
server.close();
