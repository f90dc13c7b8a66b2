// A one-off check, not a test (it takes minutes): `node --import tsx
// scripts/open-runs.ts [runs] [-- <stepgate options>]` starts the built CLI
// over HTTP with a ledger folder, starts `runs` (default 20,000) runs over
// 2026-07-28 and leaves them open, then sends SIGTERM. It prints how many
// starts were refused (the cap), the server's RSS before, after and at its
// peak, the exit code and whether every ledger is closed by run_abandoned.
// Exits 1 when the exit code is not 0 or a ledger is left open.
// test/http/many-runs.test.ts holds the same behaviour with small caps.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const split = process.argv.indexOf("--");
const runs = Number(process.argv[2] && process.argv[2] !== "--" ? process.argv[2] : 20_000);
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const dir = mkdtempSync(join(tmpdir(), "stepgate-open-runs-"));
const stepfile = join(root, "test/fixtures/one-open-step.stepfile.yaml");
const ledgers = join(dir, "ledgers");
const child = spawn(process.execPath, [join(root, "bin/stepgate.js"), "--http", "0", "--ledger-dir", ledgers, ...extra, stepfile], { stdio: ["ignore", "ignore", "pipe"] });
const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
let stderr = "";
const url = await new Promise<string>((ok, fail) => {
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += String(chunk);
    const match = /listening on (\S+)/.exec(stderr);
    if (match) ok(match[1]!);
  });
  void exited.then((code) => fail(new Error(`exited ${code}: ${stderr}`)));
});

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024;
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "open-runs", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "one" };

async function start(id: number): Promise<"open" | "busy" | string> {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "one", arguments: {}, _meta: meta } });
  const text = await (await fetch(url, { method: "POST", headers, body })).text();
  if (text.includes('"error":"ServerBusy"')) return "busy";
  if (/"state":"running"/.test(text)) return "open";
  return text.slice(0, 300);
}

const before = rss();
let peak = before;
const counts = new Map<string, number>();
let next = 0;
const began = performance.now();
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next < runs) {
      const id = ++next;
      const outcome = await start(id);
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      if (id % 1000 === 0) peak = Math.max(peak, rss());
    }
  }),
);
const after = rss();
peak = Math.max(peak, after);
const seconds = (performance.now() - began) / 1000;
child.kill("SIGTERM");
const stopping = performance.now();
const code = await exited;
const stopSeconds = (performance.now() - stopping) / 1000;
const files = readdirSync(ledgers).filter((name) => name.endsWith(".jsonl"));
const open = files.filter((name) => !/"type":"run_abandoned"[^\n]*\n$/.test(readFileSync(join(ledgers, name), "utf8")));
console.log(`starts: ${runs} in ${seconds.toFixed(1)} s; outcomes: ${JSON.stringify(Object.fromEntries(counts))}`);
console.log(`RSS: ${before.toFixed(0)} MiB before, ${after.toFixed(0)} MiB after, ${peak.toFixed(0)} MiB peak (sampled every 1,000 starts)`);
console.log(`SIGTERM: exit ${code} after ${stopSeconds.toFixed(1)} s; ledgers: ${files.length}, not closed by run_abandoned: ${open.length}`);
if (/internal error/.test(stderr)) console.log(stderr.split("\n").filter((line) => /internal error/.test(line)).join("\n"));
rmSync(dir, { recursive: true, force: true });
process.exitCode = code === 0 && open.length === 0 ? 0 : 1;
