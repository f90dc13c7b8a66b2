// Cold start of the built CLI: spawn `node bin/stepgate.js`, do the MCP
// initialize handshake over stdio, and time until the first tools/list
// answer arrives: one catalog entry, the whole bundled catalog, the catalog
// copied under new ids (stepfiles as users write them), each on a first
// launch after a build (an empty load cache) and on later launches, and one
// 1,000-step stepfile; then loads in this warm process. Run with
//   node --import tsx bench/cold-start.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { AUTHORING_TOOLS } from "../src/authoring/definitions.js";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { catalogEntries } from "../src/cli/catalog-entries.js";
import { cacheKey, entryText, readEntry } from "../src/cli/load-cache.js";
import { parseSource } from "../src/format/source.js";
import { loadStepfileText, type CheckedStepfile, type LoadCache } from "../src/loader/load.js";
import { benchEnvironment, catalogCopies, generatedStepfile, machineLine, median, ms, percentile, processCpuMs, processRssMb, quick, timedNode, times, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const warmups = quick ? 0 : 2;
const runs = quick ? 1 : 15;
/** Steps of the one large stepfile (issue 12: it must load in under 1 s). */
const bigSteps = quick ? 50 : 1000;

const dir = mkdtempSync(join(tmpdir(), "stepgate-cold-"));
// Ledgers go to a directory, not stderr, so nothing has to drain a pipe;
// no run is started here, so the directory stays empty.
const ledgerDir = join(dir, "ledgers");
mkdirSync(ledgerDir);
const copiesDir = join(dir, "copies");
mkdirSync(copiesDir);
const catalog = catalogEntries().map((e) => e.name);
const copies = catalogCopies(copiesDir);
/** Issue 27 item 7's case: 28 stepfiles of a user's own (the first 28 copies), at most 4x `node -e 0` on a first launch. */
const USER_FILES = 28;
const userFiles = copies.slice(0, USER_FILES);
const bigStepfile = join(dir, "big.stepfile.yaml");
writeFileSync(bigStepfile, generatedStepfile("big", bigSteps));
const one = ["release-notes"];
/** The load cache of "later launches": filled by the warm-ups (and by the first timed run when there are none). */
const laterCache = join(dir, "cache-later");
let fresh = 0;
/** An empty cache folder: a first launch after a build finds no entry of its build in the user's folder. */
const firstCache = () => join(dir, `cache-first-${++fresh}`);
/** The server's CPU time (user + system) when its tools/list answer arrived, per configuration. */
const cpuMs = new Map<string, number[]>();
/** Peak RSS (VmHWM) of the server after its first tools/list answer and a ping the SDK server answers, per configuration; the last sample wins. */
const peakRss = new Map<string, number>();

/** Spawn to first tools/list answer, in ms, with the load cache under `cacheHome`; checks the answer so a broken server cannot look fast. */
async function coldStart(label: string, args: readonly string[], cacheHome: string): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: "cold-start-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", ledgerDir, ...args], env: { ...getDefaultEnvironment(), XDG_CACHE_HOME: cacheHome }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const elapsed = performance.now() - started;
    const cpu = transport.pid === null ? undefined : processCpuMs(transport.pid);
    if (cpu !== undefined) (cpuMs.get(label) ?? cpuMs.set(label, []).get(label)!).push(cpu);
    // The first answers are written before the MCP SDK loads (src/stdio/early.ts):
    // a ping, answered by the SDK server, makes the peak include it.
    await client.ping();
    const rss = transport.pid === null ? undefined : processRssMb(transport.pid);
    if (rss) peakRss.set(label, rss.peak);
    // One tool per stepfile, plus stepgate_call, stepgate_submit and the authoring tools.
    const stepfiles = args.filter((a) => !a.startsWith("--")).length;
    const expected = stepfiles + 2 + AUTHORING_TOOLS.length;
    if (tools.length !== expected) throw new Error(`expected ${expected} tools, got ${tools.length}`);
    return elapsed;
  } catch (error) {
    throw new Error(`${(error as Error).message}${stderr ? `\nstderr: ${stderr}` : ""}`, { cause: error });
  } finally {
    await client.close();
  }
}

/**
 * The loop of bench/cold-loads.ts in a fresh process, in ms: the user's
 * stepfiles read (`parse`) or loaded as serving loads them (`load`) while
 * the code is cold, as on a first launch, without Node's start or the server.
 */
function coldLoads(mode: "parse" | "load", files: readonly string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "bench", "cold-loads.ts"), mode, ...files], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: benchEnvironment() });
    let out = "";
    let stderr = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 && Number.isFinite(Number(out)) ? done(Number(out)) : fail(new Error(`cold-loads.ts ${mode} exited with ${code}: ${stderr.trim()}`))));
  });
}

/** The floor: how long Node itself takes to start and exit with nothing to do. */
const bareNode = () => timedNode(["-e", "0"]);

const catalogTexts = catalogEntries().map((e) => ({ name: e.name, text: readFileSync(e.file, "utf8") }));

/** A load cache in memory that keeps entries as the CLI's disk cache writes them (src/cli/load-cache.ts). */
function memoryCache(): LoadCache {
  const entries = new Map<string, string>();
  return {
    get: (text) => {
      const key = cacheKey(text, "bench");
      const entry = entries.get(key);
      return entry === undefined ? undefined : readEntry(entry, key);
    },
    set: (text, checked: CheckedStepfile) => {
      const key = cacheKey(text, "bench");
      const entry = entryText(key, checked);
      if (entry !== undefined) entries.set(key, entry);
    },
  };
}

/**
 * Each catalog entry loaded in this process once the loader's code is warm,
 * the median of `count` loads per entry, in full (no cache) or from a load
 * cache hit; the row is the median over the catalog.
 */
function warmCatalogLoads(cache: LoadCache | undefined, count: number): number[] {
  for (const { name, text } of catalogTexts) loadStepfileText(text, name, cache);
  return catalogTexts.map(({ name, text }) => {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      loadStepfileText(text, name, cache);
      samples.push(performance.now() - started);
    }
    return median(samples);
  });
}

/** Only parsing the 1,000-step stepfile (read by the fast reader, positions included). */
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

interface Config {
  label: string;
  args: readonly string[];
  cache: () => string;
}

/** The spawned configurations, each run once per round, the rows taking turns so drift on a shared machine hits all alike. */
const configs: Config[] = [
  { label: "stepgate, 1 catalog entry (release-notes), first launch after a build", args: one, cache: firstCache },
  { label: "stepgate, 1 catalog entry, later launches", args: one, cache: () => laterCache },
  { label: `stepgate, the whole catalog (${catalog.length} entries), first launch after a build`, args: catalog, cache: firstCache },
  { label: "stepgate, the whole catalog, later launches", args: catalog, cache: () => laterCache },
  { label: "stepgate, the whole catalog, --no-cache (every entry parsed and checked)", args: ["--no-cache", ...catalog], cache: () => laterCache },
  { label: `stepgate, the catalog copied under new ids (${copies.length} files), first launch`, args: copies, cache: firstCache },
  { label: "stepgate, the catalog copied under new ids, later launches", args: copies, cache: () => laterCache },
  { label: `stepgate, ${userFiles.length} of those copies (a user's own stepfiles), first launch`, args: userFiles, cache: firstCache },
];

try {
  const spawned = new Map<string, number[]>(configs.map((c) => [c.label, []]));
  const floorSamples: number[] = [];
  /** bench/cold-loads.ts's loops over the user's stepfiles, one fresh process each. */
  const coldParses: number[] = [];
  const coldFullLoads: number[] = [];
  for (let round = 0; round < warmups + runs; round++) {
    const timed = round >= warmups;
    const floor = await bareNode();
    if (timed) floorSamples.push(floor);
    for (const config of configs) {
      const elapsed = await coldStart(config.label, config.args, config.cache());
      if (timed) spawned.get(config.label)!.push(elapsed);
    }
    const parse = await coldLoads("parse", userFiles);
    const load = await coldLoads("load", userFiles);
    if (timed) {
      coldParses.push(parse);
      coldFullLoads.push(load);
    }
  }
  const bigCold: number[] = [];
  for (let i = 0; i < (quick ? 1 : 6); i++) {
    const elapsed = await coldStart("big", [bigStepfile], firstCache());
    if (quick || i > 0) bigCold.push(elapsed);
  }
  const loadsPerEntry = quick ? 1 : 15;
  const warmFull = warmCatalogLoads(undefined, loadsPerEntry);
  const warmHit = warmCatalogLoads(memoryCache(), loadsPerEntry);
  const bigLoads: number[] = [];
  const bigParses: number[] = [];
  for (let i = 0; i < (quick ? 1 : 6); i++) {
    const load = await bigLoad();
    const parse = await bigParse();
    if (quick || i > 0) {
      bigLoads.push(load);
      bigParses.push(parse);
    }
  }

  const floor = median(floorSamples);
  const at = (i: number) => median(spawned.get(configs[i]!.label)!);
  const [oneFirst, oneLater, allFirst, allLater, allFull, copiesFirst, copiesLater] = configs.map((_, i) => at(i)) as [number, number, number, number, number, number, number];
  const wholeTarget = (m: number, base: number) => `${verdict(m / base <= 1.4 && m <= 400, "<= 1.4x the 1-entry row and <= 400 ms")} (${times(m / base)})`;
  const rssCell = (label: string) => peakRss.get(label)?.toFixed(1) ?? "-";
  const cpuCell = (label: string) => (cpuMs.get(label)?.length ? ms(median(cpuMs.get(label)!)) : "-");
  const rows: Array<{ name: string; samples: number[]; ratio: string; rss: string; target: string; cpu: string }> = [
    { name: "`node -e 0` (spawn to exit; the floor)", samples: floorSamples, ratio: "1.00x", rss: "-", target: "-", cpu: "-" },
    ...configs.map((c, i) => {
      const m = at(i);
      const target =
        i === 0 || i === 1
          ? verdict(m / floor <= 2, "<= 2x `node -e 0`")
          : i === 2
            ? wholeTarget(m, oneFirst)
            : i === 3
              ? `${wholeTarget(m, oneLater)}; ${verdict((peakRss.get(c.label) ?? Infinity) <= 90, "peak RSS <= 90 MB")}`
              : i === 5 || i === 6
                ? `${times(m / (i === 5 ? oneFirst : oneLater))} the 1-entry row (no target)`
                : i === 7
                  ? verdict(m / floor <= 4, "<= 4x `node -e 0` (issue 27 item 7)")
                  : `${times(m / oneLater)} the 1-entry row (reference)`;
      return { name: c.label, samples: spawned.get(c.label)!, ratio: times(m / floor), rss: rssCell(c.label), target, cpu: cpuCell(c.label) };
    }),
    { name: `stepgate, one ${bigSteps}-step stepfile (first launch)`, samples: bigCold, ratio: times(median(bigCold) / floor), rss: rssCell("big"), target: "-", cpu: cpuCell("big") },
  ];
  const inProcess: Array<{ name: string; samples: number[]; target: string }> = [
    { name: `in-process: load one catalog entry in full, warm (median per entry; median, p90, min over the ${catalog.length})`, samples: warmFull, target: verdict(median(warmFull) <= 2, "median <= 2 ms") },
    { name: "in-process: load one catalog entry from a load cache hit, warm (same)", samples: warmHit, target: "-" },
    { name: `in-process: load the ${bigSteps}-step stepfile`, samples: bigLoads, target: verdict(median(bigLoads) < 1000, "< 1 s") },
    { name: "in-process: of which parsing its YAML", samples: bigParses, target: "-" },
    { name: `fresh process (code cold): read the ${USER_FILES} user stepfiles' YAML (the loop alone: no Node start, no server)`, samples: coldParses, target: "-" },
    { name: `fresh process (code cold): load the ${USER_FILES} as serving does before its first answer (same)`, samples: coldFullLoads, target: "-" },
  ];

  console.log("## Cold start to the first tools/list\n");
  console.log(
    `Method: spawn \`node bin/stepgate.js --ledger-dir <tmp> <stepfiles>\` (the built CLI), connect an MCP client over stdio (initialize handshake) and time until the tools/list answer. ${runs} rounds after ${warmups} warm-up rounds; in each round \`node -e 0\` and every spawned row run once, in turn, so drift on a shared machine hits all rows alike. "First launch after a build" gives the server an empty load cache folder (\`XDG_CACHE_HOME\`), as on the first launch of a new build: catalog entries are then read from the entries the build shipped (dist/loads/), a user's own stepfiles are parsed and checked in full. "Later launches" share one cache folder that earlier rounds filled. The copies are the ${copies.length} catalog entries with \`-copy\` added to their ids, so no shipped entry matches them. Server CPU is the server's user + system time (Linux /proc, 10 ms ticks) when its tools/list answer arrived: on a busy machine it moves far less than wall time. Peak RSS is the server's VmHWM (Linux /proc) read after its tools/list answer and one ping, which the MCP SDK server answers (the first answers are written before the SDK loads). The in-process rows load in the bench's own process, its loader warm: each catalog entry ${loadsPerEntry} times, in full or from a load cache hit (kept in memory in the disk cache's own format), the row giving the median, p90 and minimum over the entries of each entry's median.\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| configuration | median ms | p90 ms | min ms | ratio to floor | server CPU ms (median) | peak RSS MB | target |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) console.log(`| ${row.name} | ${ms(median(row.samples))} | ${ms(percentile(row.samples, 90))} | ${ms(Math.min(...row.samples))} | ${row.ratio} | ${row.cpu} | ${row.rss} | ${row.target} |`);
  for (const row of inProcess) console.log(`| ${row.name} | ${ms(median(row.samples))} | ${ms(percentile(row.samples, 90))} | ${ms(Math.min(...row.samples))} | - | - | - | ${row.target} |`);
  console.log(
    `\nInterpretation: one catalog entry reaches tools/list in ${ms(oneFirst)} ms on a first launch and ${ms(oneLater)} ms later, ${times(oneFirst / floor)} and ${times(oneLater / floor)} the ${ms(floor)} ms it takes to start a Node process at all; the rest is reading and compiling the serve chunk of the bundle, loading the entry and the initialize/tools/list exchange, answered before the MCP SDK loads (src/stdio/early.ts). The whole catalog takes ${ms(allFirst)} ms on a first launch after a build and ${ms(allLater)} ms later (${times(allFirst / oneFirst)} and ${times(allLater / oneLater)} the 1-entry rows): each entry is a load cache hit, so it is only compiled, its schemas on first use. Parsing and checking every entry (--no-cache) takes ${ms(allFull)} ms, ${ms((allFull - oneLater) / (catalog.length - 1))} ms per extra entry. The same ${copies.length} stepfiles as a user's own take ${ms(copiesFirst)} ms on their first launch, when each is loaded in full and kept, and ${ms(copiesLater)} ms on later launches; ${USER_FILES} of them (issue 27 item 7's case) ${ms(at(7))} ms, ${times(at(7) / floor)} \`node -e 0\`. Warm, a catalog entry loads in full in ${ms(median(warmFull))} ms at the median over the catalog, and from a cache hit in ${ms(median(warmHit))} ms. The ${bigSteps}-step stepfile loads in ${ms(median(bigLoads))} ms in a warm process (${Math.round((100 * median(bigParses)) / median(bigLoads))}% of it reading its YAML) and reaches tools/list cold in ${ms(median(bigCold))} ms. Issue 27 item 7's target for the ${USER_FILES} user stepfiles, 4x \`node -e 0\`, is ${ms(4 * floor)} ms. In a fresh process, where the code is as cold as on a first launch, loading them as serving does before its first answer takes ${ms(median(coldFullLoads))} ms, ${times(median(coldFullLoads) / (4 * floor))} the target on its own, with no Node start, serving code or exchange around it; only reading their YAML takes ${ms(median(coldParses))} ms (${Math.round((100 * median(coldParses)) / (4 * floor))}% of the target). Those two rows run src/ through tsx, not the bundle, which if anything is slower than the launch's own code.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
