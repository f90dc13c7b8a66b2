// Load over HTTP as users run it: the built `stepgate --http` with
// --ledger-dir, <sessions> SDK clients at once, each running the greet
// stepfile <runs per session> times start to finish; every ledger verified
// with `stepgate --verify`. Reports p50/p99 per run, wall time and the
// server's peak RSS. Default: 200 sessions x 5 runs = 1,000 runs.
//
//   node --import tsx bench/load.bench.ts [sessions=200] [runsPerSession=5]
import { cpus, loadavg } from "node:os";
import { loadRun } from "../test/support/load-run.js";

const sessions = Number(process.argv[2] ?? 200);
const runsPerSession = Number(process.argv[3] ?? 5);
const r = await loadRun(sessions, runsPerSession);
const lost = r.runs * 12 - r.records;
process.stdout.write(
  [
    `## Load: ${r.runs} runs over HTTP (${sessions} sessions at once)`,
    "",
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()[0]!.toFixed(2)} at the end.`,
    "",
    "| runs | finished | ledgers verified | records lost | p50 per run | p99 per run | wall | peak RSS |",
    "|---|---|---|---|---|---|---|---|",
    `| ${r.runs} | ${r.finished} | ${r.verified}/${r.ledgers} | ${lost} | ${Math.round(r.p50Ms)} ms | ${Math.round(r.p99Ms)} ms | ${(r.wallMs / 1000).toFixed(1)} s | ${r.peakRssMiB === null ? "n/a" : `${r.peakRssMiB.toFixed(0)} MiB`} |`,
    "",
  ].join("\n"),
);
if (r.finished !== r.runs || r.verified !== r.ledgers || lost !== 0) process.exit(1);
