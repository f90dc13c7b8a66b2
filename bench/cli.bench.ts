// One-off CLI modes as a script runs them: spawn `node bin/stepgate.js
// <mode>` and time spawn to exit, against `node -e 0` in the same run (the
// floor: a Node process that does nothing). Peak RSS of each comes from a
// separate, untimed run. Run with
//   node --import tsx bench/cli.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { allowed, benchEnvironment, fiveGateStepfile, machineLine, median, ms, passingOutput, peakRssMb, percentile, quick, timedNode, times, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const warmups = quick ? 0 : 3;
const runs = quick ? 1 : 21;

/** A real ledger for --verify: one whole run of the five-gate stepfile over stdio. */
async function writeLedger(dir: string): Promise<string> {
  const stepfile = join(dir, "five-gates.stepfile.yaml");
  writeFileSync(stepfile, fiveGateStepfile("five-gates", 0));
  const ledgers = join(dir, "ledgers");
  const client = new Client({ name: "cli-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", ledgers, stepfile], env: benchEnvironment(), stderr: "ignore" }));
  try {
    const started = await client.callTool({ name: "five-gates", arguments: { allowed } });
    const run = (started.structuredContent as { run: string }).run;
    await client.callTool({ name: "stepgate_submit", arguments: { run, output: passingOutput } });
  } finally {
    await client.close();
  }
  const found = readdirSync(ledgers, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name.endsWith(".jsonl"));
  if (!found) throw new Error("the run wrote no ledger file");
  return join(found.parentPath, found.name);
}

interface Row {
  name: string;
  args: string[];
  /** Largest ratio to the floor the target allows; undefined for the floor. */
  target?: number;
}

const dir = mkdtempSync(join(tmpdir(), "stepgate-cli-bench-"));
try {
  const ledger = await writeLedger(dir);
  const rows: Row[] = [
    { name: "`node -e 0` (the floor)", args: ["-e", "0"] },
    { name: "`stepgate --version`", args: [bin, "--version"], target: 2.5 },
    { name: "`stepgate --help`", args: [bin, "--help"], target: 2.5 },
    { name: "`stepgate --list` (the catalog)", args: [bin, "--list"], target: 3 },
    { name: "`stepgate --verify <one ledger>`", args: [bin, "--verify", ledger], target: 3 },
  ];
  for (const row of rows) for (let i = 0; i < warmups; i++) await timedNode(row.args);
  // Rows alternate run by run, so a burst of load elsewhere hits them alike.
  const samples = rows.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) for (const [r, row] of rows.entries()) samples[r]!.push(await timedNode(row.args));
  const rss = [];
  for (const row of rows) rss.push(await peakRssMb(row.args));
  const floor = median(samples[0]!);

  console.log("## CLI modes against `node -e 0`\n");
  console.log(
    `Method: spawn \`node <args>\` from this process and time spawn to exit; ${runs} runs per row after ${warmups} warm-ups, the rows taking turns run by run. \`--verify\` reads the ledger of one whole run of the five-gate stepfile (${readdirSync(dir).length ? "written by the built CLI over stdio just before" : ""}). Peak RSS is \`process.resourceUsage().maxRSS\` at exit, from one more, untimed run with a preloaded probe (bench/rss-probe.mjs).\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| command | median ms | p90 ms | ratio to floor | peak RSS MB | target |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const [r, row] of rows.entries()) {
    const m = median(samples[r]!);
    const target = row.target === undefined ? "-" : verdict(m / floor <= row.target, `<= ${row.target}x`);
    console.log(`| ${row.name} | ${ms(m)} | ${ms(percentile(samples[r]!, 90))} | ${times(m / floor)} | ${rss[r]!.toFixed(1)} | ${target} |`);
  }
  console.log(
    `\nInterpretation: each mode loads only its own code (src/cli.ts imports a mode with import() when it is asked for, and the bundle keeps each mode in its own chunk), so --version and --help read the small entry chunk and exit, --verify adds the ledger checker, and --list adds the loader (YAML, Ajv, the expression compiler) and loads every catalog stepfile. What is left above the floor is reading and compiling that code${process.version.startsWith("v20.") ? " (Node 20 has no module compile cache; on Node 22.1+ bin/stepgate.js turns it on)" : ""} and, for --list, the loads themselves.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
