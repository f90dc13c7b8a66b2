// Load over HTTP as users run it: the built `stepgate --http` with
// --ledger-dir, <sessions> SDK clients at once, each running a whole run
// <runs per session> times (calls to a loopback API by Stepgate and by the
// client, an evidence gate, a sign-off; test/support/load-run.ts); every ledger verified
// with `stepgate --verify`. Reports p50/p99 per run, wall time and the
// server's peak RSS. Default: 200 sessions x 5 runs = 1,000 runs.
//
//   node --import tsx bench/load.bench.ts [sessions=200] [runsPerSession=5] [--quick]
//
// --quick (the benches' smoke run) drives 4 sessions x 1 run.
import { cpus, loadavg } from "node:os";
import { loadRun, RECORDS_PER_RUN } from "../test/support/load-run.js";
import { quick } from "./support.js";

const counts = process.argv.slice(2).filter((arg) => arg !== "--quick");
const sessions = Number(counts[0] ?? (quick ? 4 : 200));
const runsPerSession = Number(counts[1] ?? (quick ? 1 : 5));
const r = await loadRun(sessions, runsPerSession);
const lost = r.runs * RECORDS_PER_RUN - r.records;
process.stdout.write(
  [
    `## Load: ${r.runs} runs over HTTP (${sessions} sessions at once)`,
    "",
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()[0]!.toFixed(2)} at the end.`,
    "",
    "| runs | finished | ledgers verified | records lost | calls retried | p50 per run | p99 per run | wall | peak RSS |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${r.runs} | ${r.finished} | ${r.verified}/${r.ledgers} | ${lost} | ${r.retries} | ${Math.round(r.p50Ms)} ms | ${Math.round(r.p99Ms)} ms | ${(r.wallMs / 1000).toFixed(1)} s | ${r.peakRssMiB === null ? "n/a" : `${r.peakRssMiB.toFixed(0)} MiB`} |`,
    "",
  ].join("\n"),
);
// A run count of zero (bad arguments) must fail too, not pass with nothing measured.
if (r.runs !== sessions * runsPerSession || r.runs === 0 || r.finished !== r.runs || r.verified !== r.ledgers || lost !== 0) process.exit(1);
