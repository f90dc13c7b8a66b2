// Preloaded (`node --require bench/rss-probe.cjs ...`) only in the benches'
// untimed memory runs: at exit, writes the process's peak resident set size
// in KB to the file named by STEPGATE_BENCH_RSS_FILE.
"use strict";
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  const file = process.env.STEPGATE_BENCH_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
