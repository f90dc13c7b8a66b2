// Shared by the benches: order statistics, the machine line each section
// prints, and the stepfiles they measure. Not a bench itself: run.ts only
// runs files named *.bench.ts.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { catalogEntries } from "../src/cli/catalog-entries.js";

/** The p-th percentile (0..100) of samples, nearest-rank, so it is always a measured value. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/**
 * One line naming the machine, because numbers from another machine (or the
 * same one under load) are not comparable. The load average is there
 * because a busy machine inflates every number here.
 */
export function machineLine(): string {
  const list = cpus();
  const load = loadavg().map((l) => l.toFixed(2)).join(" / ");
  return `Machine: ${list[0]?.model.trim() ?? "unknown CPU"} × ${list.length}, Node ${process.version}, load average (1/5/15 min) at start ${load}.`;
}

/** Formats a duration in ms with enough digits to compare rows. */
export const ms = (value: number): string => value.toFixed(value < 10 ? 2 : 1);

/** Formats a duration given in ms as whole microseconds. */
export const us = (valueMs: number): string => Math.round(valueMs * 1000).toString();

/**
 * A valid stepfile of `steps` agent steps, each with two schema gates and two
 * predicate gates, for the cold-start bench: loading it exercises the
 * structure check, the rules, the expression checks and compilation.
 */
export function generatedStepfile(id: string, steps = 4): string {
  const lines = [
    `stepgate: "1"`,
    `id: ${id}`,
    `description: Generated stepfile ${id} for the cold-start bench.`,
    `inputs: { type: object, required: [allowed], properties: { allowed: { type: array, items: { type: string } } } }`,
    `steps:`,
  ];
  for (let i = 1; i <= steps; i++) {
    lines.push(
      `  - id: step-${i}`,
      `    instructions: "Step ${i} of ${id}: list items from {{inputs.allowed}}."`,
      `    produces: { type: object, required: [items, count], properties: { items: { type: array, items: { type: object, required: [id, price], properties: { id: { type: string }, price: { type: number } } } }, count: { type: integer } } }`,
      `    retries: 2`,
      `    gates:`,
      `      - { id: some-items, schema: { properties: { items: { minItems: 1 } } } }`,
      `      - { id: few-items, schema: { properties: { items: { maxItems: 50 } } } }`,
      `      - { id: counted, message: count must equal the number of items, predicate: { "==": [{ var: output.count }, { length: { var: output.items } }] } }`,
      `      - { id: allowed, message: every id must be allowed, predicate: { subset: [{ map: [{ var: output.items }, { var: id }] }, { var: inputs.allowed }] } }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The one-step stepfile of the submit bench: five gates, two schema and
 * three predicate gates using in, ==, length, subset, map and all.
 */
export function fiveGateStepfile(id: string, retries: number): string {
  return `stepgate: "1"
id: ${id}
description: One step with five gates, for the submit bench.
inputs: { type: object, required: [allowed], properties: { allowed: { type: array, items: { type: string } } } }
steps:
  - id: pick
    instructions: "Pick items from {{inputs.allowed}}."
    produces: { type: object, required: [status, items, count], properties: { status: { type: string }, count: { type: integer }, items: { type: array, items: { type: object, required: [id, price], properties: { id: { type: string }, price: { type: number } } } } } }
    retries: ${retries}
    gates:
      - { id: some-items, schema: { properties: { items: { minItems: 1, maxItems: 50 } } } }
      - { id: known-status, message: status must be open or closed, predicate: { in: [{ var: output.status }, [open, closed]] } }
      - { id: counted, message: count must equal the number of items, predicate: { "==": [{ var: output.count }, { length: { var: output.items } }] } }
      - { id: allowed, message: every id must be allowed, predicate: { subset: [{ map: [{ var: output.items }, { var: id }] }, { var: inputs.allowed }] } }
      - { id: priced, message: every price must be positive, predicate: { all: [{ var: output.items }, { ">": [{ var: price }, 0] }] } }
`;
}

export const allowed = Array.from({ length: 20 }, (_, i) => `K-${i}`);

/** Passes all five gates of fiveGateStepfile. */
export const passingOutput = {
  status: "open",
  count: 10,
  items: Array.from({ length: 10 }, (_, i) => ({ id: `K-${i}`, price: 1 + i })),
};

/** Fails exactly one gate (counted) and passes the other four, so all five are still evaluated. */
export const oneGateFailingOutput = { ...passingOutput, count: 9 };

/**
 * The bundled catalog copied under new ids into `dir` (`<id>-copy`, and the
 * tool name with it): stepfiles as users write them, which no entry the
 * build shipped for the load cache matches, so they load as a user's own
 * files do. Throws if an entry's id cannot be found to rename.
 */
export function catalogCopies(dir: string): string[] {
  return catalogEntries().map((entry) => {
    const text = readFileSync(entry.file, "utf8");
    const yamlId = new RegExp(`^id: ${entry.name}$`, "m");
    const jsonId = new RegExp(`^  "id": "${entry.name}"`, "m");
    const copy = yamlId.test(text) ? text.replace(yamlId, `id: ${entry.name}-copy`) : text.replace(jsonId, `  "id": "${entry.name}-copy"`);
    if (copy === text) throw new Error(`cannot find the id of ${entry.file} to copy it under a new one`);
    const file = join(dir, `${entry.name}-copy${entry.file.endsWith(".json") ? ".stepfile.json" : ".stepfile.yaml"}`);
    writeFileSync(file, copy);
    return file;
  });
}

/**
 * The environment for a CLI spawned through the MCP SDK's stdio transport
 * (which passes on only PATH, HOME and a few more): those, plus the load
 * cache folder bench/run.ts gives the run, so no bench writes to ~/.cache.
 */
export function benchEnvironment(): Record<string, string> {
  const cacheHome = process.env.XDG_CACHE_HOME;
  return { ...getDefaultEnvironment(), ...(cacheHome ? { XDG_CACHE_HOME: cacheHome } : {}) };
}

/** `--quick`: every bench once with tiny counts, so the suite can check they still run (no timing is judged). */
export const quick = process.argv.includes("--quick");

/**
 * Spawn `node <args>` and time spawn to exit in ms; a non-zero exit is an
 * error, so a broken mode cannot look fast. The environment is the one every
 * server of the benches gets (benchEnvironment), so a floor is a floor of
 * the same thing: the shell's own can make Node slower to start (with
 * NODE_EXTRA_CA_CERTS naming the system bundle, Node 20 read it at start,
 * and `node -e 0` took 80 ms against 30 without), and a floor spawned with
 * it beside servers spawned without flattered every ratio to it.
 */
export function timedNode(args: readonly string[], cwd?: string): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: benchEnvironment(), ...(cwd ? { cwd } : {}) });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", fail);
    child.on("close", (code) => {
      const elapsed = performance.now() - started;
      if (code === 0) done(elapsed);
      else fail(new Error(`node ${args.join(" ")} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

const probe = pathToFileURL(join(import.meta.dirname, "rss-probe.mjs")).href;

/** Peak RSS in MB of `node <args>`, from a separate, untimed run with bench/rss-probe.mjs preloaded. */
export async function peakRssMb(args: readonly string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-rss-"));
  const file = join(dir, "rss");
  try {
    await new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, ["--import", probe, ...args], { stdio: "ignore", env: { ...benchEnvironment(), STEPGATE_BENCH_RSS_FILE: file } });
      child.on("error", fail);
      child.on("close", () => done());
    });
    return Number(readFileSync(file, "utf8")) / 1024;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Peak and current RSS in MB of a live process (Linux /proc; undefined elsewhere). */
export function processRssMb(pid: number): { peak: number; now: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
    return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) in ms a live process has used so far (Linux /proc; undefined elsewhere): steadier than wall time on a busy machine. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** `12.3x` for a ratio to a floor. */
export const times = (ratio: number): string => `${ratio.toFixed(2)}x`;

/** A target cell: what the row had to reach and whether this run reached it. */
export const verdict = (met: boolean, target: string): string => `${target}: ${met ? "met" : "**not met**"}`;

/** A stepfile of one agent step that may call one loopback operation (GET <origin>/item, `getItem`), for the benches that time calls. */
export function oneCallStepfile(id: string, bench: string, origin: string): string {
  return `stepgate: "1"
id: ${id}
description: One step that may call one loopback operation, for ${bench}.
inputs: { type: object, properties: {} }
tools:
  api:
    openapi:
      server: "${origin}"
      document:
        openapi: 3.1.0
        info: { title: Items, version: "1" }
        paths:
          /item:
            get:
              operationId: getItem
              responses: { "200": { description: an item } }
    exposes: [getItem]
steps:
  - id: look
    tools: [getItem]
    instructions: Look the item up.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`;
}
