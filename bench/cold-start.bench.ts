// Cold start of the built CLI: spawn `node bin/stepgate.js`, do the MCP
// initialize handshake over stdio, and time until the first tools/list
// answer arrives. Run with
//   node --import tsx bench/cold-start.bench.ts
// It prints a markdown section; nothing here is a timed assertion.
import { AUTHORING_TOOLS } from "../src/authoring/index.js";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseSource } from "../src/format/source.js";
import type { StepfileDocument } from "../src/format/types.js";
import { compileStepfile } from "../src/loader/compile.js";
import { loadStepfileText } from "../src/loader/load.js";
import { generatedStepfile, machineLine, median, ms, percentile } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const warmups = 2;
const runs = 15;
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
async function bareNode(): Promise<number> {
  const started = performance.now();
  await promisify(execFile)(process.execPath, ["-e", "0"]);
  return performance.now() - started;
}

/**
 * One generated stepfile loaded in this process once the loader's code is
 * warm: the work itself, to set against the per-stepfile cost seen at cold
 * start. Each load gets its own Ajv instance, so nothing is cached between them.
 */
async function warmLoad(): Promise<number> {
  const text = generatedStepfile("gen-warm", stepsPerFile);
  const started = performance.now();
  loadStepfileText(text, "gen-warm");
  return performance.now() - started;
}

/** Only the compile phase of that load (a new Ajv instance, every schema and predicate compiled), to show what the load spends its time on. */
async function warmCompile(): Promise<number> {
  const parsed = parseSource(generatedStepfile("gen-warm", stepsPerFile));
  if ("issues" in parsed) throw new Error("generated stepfile does not parse");
  const started = performance.now();
  const { compiled } = compileStepfile(parsed.data as StepfileDocument);
  const elapsed = performance.now() - started;
  if (!compiled) throw new Error("generated stepfile does not compile");
  return elapsed;
}

async function measure(once: () => Promise<number>, warm = warmups): Promise<number[]> {
  for (let i = 0; i < warm; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return times;
}

try {
  const rows: [string, number[]][] = [
    ["`node -e 0` (spawn to exit; the floor)", await measure(bareNode)],
    ["stepgate, 1 stepfile", await measure(() => coldStart(stepfiles.slice(0, 1)))],
    ["stepgate, 20 stepfiles", await measure(() => coldStart(stepfiles))],
    ["in-process: load one generated stepfile, warm (no process start)", await measure(warmLoad, 10)],
    ["in-process: of which compileStepfile alone, warm", await measure(warmCompile, 10)],
  ];
  const [floor, one, twenty, warm, compile] = rows.map(([, t]) => median(t)) as [number, number, number, number, number];
  const perStepfile = (twenty - one) / 19;

  console.log("## Cold start to the first tools/list\n");
  console.log(
    `Method: spawn \`node bin/stepgate.js --ledger-dir <tmp> <stepfiles>\` (the built CLI), connect an MCP client over stdio (initialize handshake) and time until the tools/list answer; ${runs} runs after ${warmups} warm-ups, one at a time. The in-process rows load the same stepfile in the bench's own process, ${runs} runs after 10 warm-ups. Each generated stepfile has ${stepsPerFile} agent steps with 2 schema and 2 predicate gates each.\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| configuration | median ms | p90 ms | min ms |");
  console.log("|---|---:|---:|---:|");
  for (const [name, times] of rows) console.log(`| ${name} | ${ms(median(times))} | ${ms(percentile(times, 90))} | ${ms(Math.min(...times))} |`);
  console.log(
    `\nInterpretation: the median cold start with one stepfile is ${ms(one)} ms, of which ${ms(floor)} ms (${Math.round((100 * floor) / one)}%) is starting a Node process at all; the rest is loading Stepgate's modules (MCP SDK, Ajv, the expression compiler), loading the stepfile and the initialize/tools/list exchange. Nineteen more stepfiles add ${ms(twenty - one)} ms, about ${ms(perStepfile)} ms per stepfile (parse, structure check, rules, expression checks, compilation with Ajv schema compiles, identity hash); the same load takes ${ms(warm)} ms in a warm process, so ${warm >= perStepfile / 2 ? `the per-stepfile cost is mostly the loading work itself, not cold code` : `most of the per-stepfile cost at start is running the loader's code cold`}. Of the warm load, ${ms(compile)} ms (${Math.round((100 * compile) / warm)}%) is compileStepfile: a new Ajv instance compiling the inputs schema, ${stepsPerFile} \`produces\` schemas and ${2 * stepsPerFile} schema gates, plus the predicates. ${perStepfile > 0 && (one - floor) / perStepfile < 20 ? `So loading stepfiles overtakes the fixed cost of Stepgate's startup above the Node floor (${ms(one - floor)} ms) at about ${Math.max(1, Math.round((one - floor) / perStepfile))} stepfiles.` : "So the fixed cost of startup dominates at these sizes."}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
