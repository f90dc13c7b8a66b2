// Memory under junk: the built `stepgate --http` gets two rounds of 2,000
// malformed requests, 50 at a time (half of them `initialize` calls never followed,
// the rest bodies that are not JSON, nested past the depth limit, a wrong
// content type, an unknown session, an unsupported protocol version, a GET
// with no session). Issue 12 measured RSS growing from 105 to 355 MB here
// before --max-sessions and the reaping of sessions that never completed
// initialization; this reports the resident set before, right after, and
// once those sessions were reaped, per round, and whether a real client is
// served afterwards.
//
//   node --import tsx bench/junk-requests.bench.ts [--quick]   (--quick: one round of 100, no wait for the reaping, so its last column means nothing)
import { loadavg } from "node:os";
import { junkRequests } from "../test/support/junk-requests.js";
import { machineLine, quick } from "./support.js";

const requests = quick ? 100 : 2_000;
const r = await junkRequests(requests, quick ? { rounds: 1, reapWaitMs: 0 } : { rounds: 2 });
const mib = (n: number) => `${n.toFixed(0)} MiB`;
process.stdout.write(
  [
    `## Memory after malformed HTTP requests (${r.rounds === 1 ? "1 round" : `${r.rounds} rounds`} of ${requests.toLocaleString("en")})`,
    "",
    machineLine(),
    "",
    "| round | RSS before | RSS right after | RSS after reaping (10 s grace) |",
    "|---|---|---|---|",
    ...r.afterRounds.map((a, i) => `| ${i + 1} | ${mib(i === 0 ? r.rssStartMiB : r.afterRounds[i - 1]!.rssReapedMiB)} | ${mib(a.rssAfterMiB)} | ${mib(a.rssReapedMiB)} |`),
    "",
    `Answers by status: ${Object.entries(r.statuses).map(([status, n]) => `${status}: ${n}`).join(", ")}. Peak RSS ${mib(r.peakRssMiB)}. A real client served afterwards: ${r.servesAfter ? "yes" : "NO"}. Load average at the end: ${loadavg()[0]!.toFixed(2)}.`,
    "",
    "Before the session cap and reaping (issue 12), one round grew RSS from 105 to 355 MB. A second round that reuses the first's memory, rather than adding as much again, shows nothing is kept.",
    "",
  ].join("\n"),
);
if (!r.servesAfter || Object.keys(r.statuses).some((status) => Number(status) >= 500 && status !== "503")) process.exit(1);
