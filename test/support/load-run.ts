// A load run over HTTP, shared by the load test (tens of sessions) and
// bench/load.bench.ts (1,000 runs): the built `stepgate --http` with
// --ledger-dir, `sessions` SDK clients at once, each running the greet
// stepfile `runsPerSession` times start to finish (one failing submit, then
// two passing ones). Every ledger is then checked with `stepgate --verify`.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { repoRoot, startCliServer, stepgateBin } from "../http/fixtures/cli-server.js";

const run = promisify(execFile);

export interface LoadResult {
  runs: number;
  finished: number;
  ledgers: number;
  verified: number;
  records: number;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
  /** The server's peak resident set (Linux VmHWM), MiB; null elsewhere. */
  peakRssMiB: number | null;
}

export async function loadRun(sessions: number, runsPerSession: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-load-"));
  const server = await startCliServer(["--ledger-dir", dir, join(repoRoot, "test/fixtures/greet.stepfile.yaml")], { timeoutMs: 60_000 });
  const durations: number[] = [];
  let finished = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: sessions }, async () => {
        const client = new Client({ name: "load", version: "0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        for (let i = 0; i < runsPerSession; i++) {
          const t = performance.now();
          const first = await client.callTool({ name: "greet", arguments: { name: "Ada" } }, { timeout: 120_000 });
          const id = (first.structuredContent as { run: string }).run;
          let last = first;
          for (const output of [{ greeting: "Hi" }, { greeting: "Hello, Ada" }, { signature: "S" }]) {
            last = await client.callTool({ name: "stepgate_submit", arguments: { run: id, output } }, { timeout: 120_000 });
          }
          if ((last.structuredContent as { state?: string }).state === "finished") finished++;
          durations.push(performance.now() - t);
        }
        await client.close();
      }),
    );
    const wallMs = performance.now() - started;
    const peakRssMiB = peakRss(server.child.pid);
    await server.stop();
    const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    let verified = 0;
    // --verify takes many files at once; batches keep the command line short.
    for (let i = 0; i < files.length; i += 200) {
      // Every run finished, so every file must be closed and intact (unsigned: this server has no key).
      const { stdout } = await run(process.execPath, [stepgateBin, "--verify", "--json", ...files.slice(i, i + 200).map((f) => join(dir, f))], { maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      verified += (JSON.parse(stdout) as { files: Array<{ verdict: { status: string } }> }).files.filter((f) => f.verdict.status === "unsigned").length;
    }
    const records = files.reduce((n, f) => n + readFileSync(join(dir, f), "utf8").trimEnd().split("\n").length, 0);
    durations.sort((a, b) => a - b);
    const at = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!;
    return { runs: durations.length, finished, ledgers: files.length, verified, records, p50Ms: at(0.5), p99Ms: at(0.99), wallMs, peakRssMiB };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function peakRss(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}
