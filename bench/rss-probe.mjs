// Preloaded (`node --import ./bench/rss-probe.mjs ...`) only in the benches'
// untimed memory runs: at exit, writes the process's peak resident set size
// in KB to the file named by STEPGATE_BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const file = process.env.STEPGATE_BENCH_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
