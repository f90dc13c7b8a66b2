// Cold start of the built CLI: spawn `node bin/stepgate.js`, do the MCP
// initialize handshake over stdio, and time until the first tools/list
// answer arrives; with 1, 20 and one 1,000-step stepfile. Run with
//   node --import tsx bench/cold-start.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { AUTHORING_TOOLS } from "../src/authoring/definitions.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseSource } from "../src/format/source.js";
import type { StepfileDocument } from "../src/format/types.js";
import { compileStepfile } from "../src/loader/compile.js";
import { loadStepfileText } from "../src/loader/load.js";
import { generatedStepfile, machineLine, median, ms, percentile, processRssMb, quick, timedNode, times, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const warmups = quick ? 0 : 2;
const runs = quick ? 1 : 15;
/** Steps of the one large stepfile (issue 12: it must load in under 1 s). */
const bigSteps = quick ? 50 : 1000;
/** Agent steps per generated stepfile; each has a produces schema, 2 schema gates and 2 predicate gates. */
const stepsPerFile = 4;

const dir = mkdtempSync(join(tmpdir(), "stepgate-cold-"));
// Ledgers go to a directory, not stderr, so nothing has to drain a pipe;
// no run is started here, so the directory stays empty.
const ledgerDir = join(dir, "ledgers");
mkdirSync(ledgerDir);
const stepfiles = Array.from({ length: 20 }, (_, i) => {
  const path = join(dir, `gen-${i + 1}.stepfile.yaml`);
  writeFileSync(path, generatedStepfile(`gen-${i + 1}`, stepsPerFile));
  return path;
});
const bigStepfile = join(dir, "big.stepfile.yaml");
writeFileSync(bigStepfile, generatedStepfile("big", bigSteps));
const oneStepfile = stepfiles.slice(0, 1);
const bigOnly = [bigStepfile];
/** Peak RSS (VmHWM) of the server after its first tools/list answer and a ping the SDK server answers, per set of files served; the last sample wins. */
const peakRss = new Map<readonly string[], number>();

/** Spawn to first tools/list answer, in ms; checks the answer so a broken server cannot look fast. */
async function coldStart(files: string[]): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: "cold-start-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", ledgerDir, ...files], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const elapsed = performance.now() - started;
    // The first answers are written before the MCP SDK loads (src/stdio-early.ts):
    // a ping, answered by the SDK server, makes the peak include it.
    await client.ping();
    const rss = transport.pid === null ? undefined : processRssMb(transport.pid);
    if (rss) peakRss.set(files, rss.peak);
    // One tool per stepfile, plus stepgate_call, stepgate_submit and the authoring tools.
    const expected = files.length + 2 + AUTHORING_TOOLS.length;
    if (tools.length !== expected) throw new Error(`expected ${expected} tools, got ${tools.length}`);
    return elapsed;
  } catch (error) {
    throw new Error(`${(error as Error).message}${stderr ? `\nstderr: ${stderr}` : ""}`, { cause: error });
  } finally {
    await client.close();
  }
}

/** The floor: how long Node itself takes to start and exit with nothing to do. */
const bareNode = () => timedNode(["-e", "0"]);

/** Only parsing the 1,000-step stepfile (its YAML is of the plain shape read without positions; they are parsed only when an issue must be placed). */
async function bigParse(): Promise<number> {
  const text = generatedStepfile("big", bigSteps);
  const started = performance.now();
  const parsed = parseSource(text);
  const elapsed = performance.now() - started;
  if ("issues" in parsed) throw new Error("the large stepfile does not parse");
  return elapsed;
}

/** The 1,000-step stepfile loaded in this (warm) process: parse, checks, compile and identity. */
async function bigLoad(): Promise<number> {
  const text = generatedStepfile("big", bigSteps);
  const started = performance.now();
  loadStepfileText(text, "big");
  return performance.now() - started;
}

/**
 * One generated stepfile loaded in this process once the loader's code is
 * warm: the work itself, to set against the per-stepfile cost seen at cold
 * start. Each load has its own id, so nothing but validators of identical
 * schemas (compiled once per process, on first use) is shared between them.
 */
let warmLoads = 0;
async function warmLoad(): Promise<number> {
  const text = generatedStepfile(`gen-warm-${++warmLoads}`, stepsPerFile);
  const started = performance.now();
  loadStepfileText(text, "gen-warm");
  return performance.now() - started;
}

/** Only the compile phase of that load (schemas checked, predicates compiled), to show what the load spends its time on. */
async function warmCompile(): Promise<number> {
  const parsed = parseSource(generatedStepfile("gen-warm", stepsPerFile));
  if ("issues" in parsed) throw new Error("generated stepfile does not parse");
  const started = performance.now();
  const { compiled } = compileStepfile(parsed.data as StepfileDocument);
  const elapsed = performance.now() - started;
  if (!compiled) throw new Error("generated stepfile does not compile");
  return elapsed;
}

async function measure(once: () => Promise<number>, warm = warmups, count = runs): Promise<number[]> {
  for (let i = 0; i < (quick ? 0 : warm); i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await once());
  return samples;
}

try {
  const rows: [string, number[]][] = [
    ["`node -e 0` (spawn to exit; the floor)", await measure(bareNode)],
    ["stepgate, 1 stepfile", await measure(() => coldStart(oneStepfile))],
    ["stepgate, 20 stepfiles", await measure(() => coldStart(stepfiles))],
    [`stepgate, one ${bigSteps}-step stepfile`, await measure(() => coldStart(bigOnly), quick ? 0 : 1, quick ? 1 : 5)],
    ["in-process: load one generated stepfile, warm (no process start)", await measure(warmLoad, 10)],
    ["in-process: of which compileStepfile alone, warm", await measure(warmCompile, 10)],
    [`in-process: load the ${bigSteps}-step stepfile`, await measure(bigLoad, quick ? 0 : 1, quick ? 1 : 5)],
    [`in-process: of which parsing its YAML`, await measure(bigParse, quick ? 0 : 1, quick ? 1 : 5)],
  ];
  const [floor, one, twenty, bigCold, warm, compile, big, bigYaml] = rows.map(([, t]) => median(t)) as [number, number, number, number, number, number, number, number];
  const perStepfile = (twenty - one) / 19;
  const ratio = (m: number, name: string) => (name.startsWith("stepgate") ? times(m / floor) : "-");
  const targets = new Map<string, string>([
    [rows[1]![0], verdict(one <= 250 && one / floor <= 5, "<= 250 ms and <= 5x")],
    [rows[2]![0], `${verdict(twenty / one <= 1.4, "<= 1.4x the 1-stepfile row")} (${times(twenty / one)}); ${verdict((peakRss.get(stepfiles) ?? Infinity) <= 90, "peak RSS <= 90 MB")}`],
    [rows[6]![0], verdict(big < 1000, "< 1 s")],
  ]);
  const rssOf = new Map<string, number | undefined>([
    [rows[1]![0], peakRss.get(oneStepfile)],
    [rows[2]![0], peakRss.get(stepfiles)],
    [rows[3]![0], peakRss.get(bigOnly)],
  ]);

  console.log("## Cold start to the first tools/list\n");
  console.log(
    `Method: spawn \`node bin/stepgate.js --ledger-dir <tmp> <stepfiles>\` (the built CLI), connect an MCP client over stdio (initialize handshake) and time until the tools/list answer; ${runs} runs after ${warmups} warm-ups, one at a time (5 runs for the ${bigSteps}-step stepfile). Peak RSS is the server's VmHWM (Linux /proc) read after its tools/list answer and one ping, which the MCP SDK server answers (the first answers are written before the SDK loads). The in-process rows load the same stepfiles in the bench's own process. Each generated stepfile has ${stepsPerFile} agent steps (the large one ${bigSteps}) with a \`produces\` schema, 2 schema and 2 predicate gates each.\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| configuration | median ms | p90 ms | min ms | ratio to floor | peak RSS MB | target |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  for (const [name, t] of rows) {
    const rss = rssOf.get(name);
    console.log(`| ${name} | ${ms(median(t))} | ${ms(percentile(t, 90))} | ${ms(Math.min(...t))} | ${ratio(median(t), name)} | ${rss === undefined ? "-" : rss.toFixed(1)} | ${targets.get(name) ?? "-"} |`);
  }
  console.log(
    `\nInterpretation: the median cold start with one stepfile is ${ms(one)} ms, ${times(one / floor)} the ${ms(floor)} ms it takes to start a Node process at all; the rest is reading and compiling the serve chunk of the bundle (the loader: Ajv, YAML, the expression compiler; tools, undici and the authoring tools load only when first used), loading the stepfile and the initialize/tools/list exchange, which is answered before the MCP SDK loads (src/stdio-early.ts; the SDK server takes the session over after it). Nineteen more stepfiles add ${ms(twenty - one)} ms, about ${ms(perStepfile)} ms per stepfile; the same load takes ${ms(warm)} ms in a warm process, of which ${ms(compile)} ms is compileStepfile (plain schemas are only checked against the meta-schema at load and compiled on first use, once per distinct schema). The ${bigSteps}-step stepfile loads in ${ms(big)} ms in a warm process (${ms(big / bigSteps)} ms per step; ${Math.round((100 * bigYaml) / big)}% of it is reading its YAML, fast and without positions, which are parsed only when an issue or warning must be placed) and reaches tools/list cold in ${ms(bigCold)} ms.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
