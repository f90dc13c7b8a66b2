// The first tools/call of a stdio session against a later one (issue 21):
// a client starts the built CLI, reads tools/list, pauses as a client does
// before its first call (a model choosing a tool), then starts a run and
// makes a stepgate_call; then starts a second run and calls again. The
// later calls are the floor the first ones are set against; the time to the
// first tools/list answer is set against a bare `node -e 0`, so loading
// ahead cannot hide a slower start. Run with
//   node --import tsx bench/first-call.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { benchEnvironment, catalogCopies, machineLine, median, ms, oneCallStepfile, percentile, quick, timedNode, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const sessions = quick ? 1 : 10;
/**
 * How long the client waits after tools/list before its first call: a
 * model choosing a tool takes a second or more; a script may call at once.
 */
const PAUSE_MS = quick ? 100 : 1000;

const BODY = JSON.stringify({ id: "K-1", name: "an item" });
const api = createServer((_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end(BODY));
await new Promise<void>((done) => api.listen(0, "127.0.0.1", done));
const origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

const dir = mkdtempSync(join(tmpdir(), "stepgate-first-call-"));
const stepfile = join(dir, "first-call.stepfile.yaml");
writeFileSync(
  stepfile,
  oneCallStepfile("first-call", "the first-call bench", origin),
);
/** Many stepfiles of a user's own (the catalog copied under new ids), beside the one: where loading is the largest part of a start. */
mkdirSync(join(dir, "copies"));
const copies = [stepfile, ...catalogCopies(join(dir, "copies"))];

interface Sample {
  toolsList: number;
  firstStart: number;
  firstCall: number;
  laterStart: number;
  laterCall: number;
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

async function session(pauseMs: number): Promise<Sample> {
  const spawned = performance.now();
  const client = new Client({ name: "first-call-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", join(dir, "ledgers"), stepfile], env: benchEnvironment(), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  try {
    await client.connect(transport);
    await client.listTools();
    const toolsList = performance.now() - spawned;
    await sleep(pauseMs);
    const start = async () => {
      const reply = await client.callTool({ name: "first-call", arguments: {} });
      const run = (reply.structuredContent as { run?: string; state?: string }).run;
      if (typeof run !== "string" || (reply.structuredContent as { state?: string }).state !== "running") throw new Error(`the run did not start: ${JSON.stringify(reply).slice(0, 300)}`);
      return run;
    };
    const call = async (run: string) => {
      const reply = await client.callTool({ name: "stepgate_call", arguments: { run, operation: "getItem", arguments: {} } });
      if (reply.isError) throw new Error(`stepgate_call failed: ${JSON.stringify(reply).slice(0, 300)}`);
    };
    const [firstStart, first] = await timed(start);
    const [firstCall] = await timed(() => call(first));
    const [laterStart, later] = await timed(start);
    const [laterCall] = await timed(() => call(later));
    return { toolsList, firstStart, firstCall, laterStart, laterCall };
  } catch (error) {
    throw new Error(`${(error as Error).message}${stderr ? `\nstderr: ${stderr}` : ""}`, { cause: error });
  } finally {
    await client.close();
  }
}

/**
 * Spawn to the first tools/list answer for a 2026-07-28 client (pinned to
 * that revision, so it opens with server/discover and has no fallback to
 * initialize), as the 2025 sessions above time theirs (issue 29: answered
 * early over stdio like the 2025 opening), serving `stepfiles`. The SDK's
 * client sends its server/discover probe to a process of its own, which it
 * stops, and only then spawns the session's process and sends tools/list
 * there; `session` is that second part, from the session transport's start.
 * Without `modern`, a 2025 client's initialize and tools/list, timed alike.
 */
async function openingToToolsList(stepfiles: string[], modern: boolean): Promise<{ whole: number; session: number }> {
  const spawned = performance.now();
  const client = new Client({ name: "first-call-bench-opening", version: "1.0.0" }, modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "--ledger-dir", join(dir, "ledgers"), ...stepfiles], env: benchEnvironment(), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  let sessionSpawned = Number.NaN;
  const start = transport.start.bind(transport);
  transport.start = () => {
    sessionSpawned = performance.now();
    return start();
  };
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const answered = performance.now();
    // A broken opening cannot look fast: the stepfile's tool must be listed.
    if (!tools.some((t) => t.name === "first-call")) throw new Error(`tools/list lacks first-call: ${tools.map((t) => t.name).join(", ")}`);
    return { whole: answered - spawned, session: answered - sessionSpawned };
  } catch (error) {
    throw new Error(`${(error as Error).message}${stderr ? `\nstderr: ${stderr}` : ""}`, { cause: error });
  } finally {
    await client.close();
  }
}

try {
  const samples: Sample[] = [];
  const opening2026: number[] = [];
  const session2026: number[] = [];
  const atOnce: Sample[] = [];
  const bare: number[] = [];
  const manyOpening2025: number[] = [];
  const manyOpening2026: number[] = [];
  const manySession2026: number[] = [];
  for (let i = 0; i < sessions; i++) {
    bare.push(await timedNode(["-e", "0"]));
    samples.push(await session(PAUSE_MS));
    atOnce.push(await session(0));
    const modern = await openingToToolsList([stepfile], true);
    opening2026.push(modern.whole);
    session2026.push(modern.session);
    manyOpening2025.push((await openingToToolsList(copies, false)).whole);
    const many = await openingToToolsList(copies, true);
    manyOpening2026.push(many.whole);
    manySession2026.push(many.session);
  }
  const col = (key: keyof Sample, from = samples) => from.map((s) => s[key]);
  const row = (name: string, values: number[], floor: number[] | undefined, target: string) =>
    `| ${name} | ${values.length} | ${ms(median(values))} | ${ms(percentile(values, 90))} | ${floor ? `${(median(values) / median(floor)).toFixed(2)}x` : "-"} | ${target} |`;
  const startRatio = median(col("firstStart")) / median(col("laterStart"));
  const callRatio = median(col("firstCall")) / median(col("laterCall"));

  console.log("## stdio: the first tools/call of a session against a later one\n");
  console.log(
    `Method: ${sessions} sessions of the built CLI over stdio (\`node bin/stepgate.js --ledger-dir <tmp> first-call.stepfile.yaml\`, one OpenAPI operation on a node:http API on 127.0.0.1), each driven by the MCP SDK's client: initialize and tools/list (timed from spawn, against a bare \`node -e 0\` spawned just before), a ${PAUSE_MS} ms pause as a client takes before its first call (and, in a second session each time, no pause), then a tools/call that starts a run (preflight opens the run's tools) and a stepgate_call of the operation; then a second run and call, the floor for the first ones. In each round a third session opens as a 2026-07-28 client (the SDK's client pinned to that revision: server/discover on a probe process of its own, which it stops, then tools/list on the session's process) and is timed from spawn to its tools/list answer, beside the 2025 opening, and from the session process's spawn alone; then a 2025 and a 2026-07-28 opening serving ${copies.length} stepfiles (the catalog copied under new ids, as a user's own, plus the bench's), timed alike. The floor of a client that probes on a process of its own is a bare Node start followed by the 2025 opening. Medians over the sessions.\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| measurement | samples | median ms | p90 ms | against the floor | target |");
  console.log("|---|---:|---:|---:|---:|---|");
  console.log(row("node -e 0 (the floor for tools/list)", bare, undefined, "-"));
  console.log(row("spawn to first tools/list answer", col("toolsList"), bare, "no slower than before the preload"));
  const ratio2026 = median(opening2026) / median(col("toolsList"));
  console.log(row("spawn to first tools/list answer, a 2026-07-28 client (server/discover opening)", opening2026, bare, `${verdict(ratio2026 <= 1.2, "<= 1.2x the 2025 row above")} (${ratio2026.toFixed(2)}x)`));
  console.log(row("of which the session's own process: its spawn to the tools/list answer (after the probe's process)", session2026, bare, `- (${(median(session2026) / median(col("toolsList"))).toFixed(2)}x the 2025 row)`));
  // What no server can beat with a client that probes on a process of its own: that process at least starts Node, then the session opens as a 2025 one does.
  const floor2026 = median(bare) + median(col("toolsList"));
  console.log(`| a sibling-probing client's floor: \`node -e 0\` then the 2025 opening (sum of the two medians) | ${sessions} | ${ms(floor2026)} | - | ${(floor2026 / median(bare)).toFixed(2)}x | - (${(floor2026 / median(col("toolsList"))).toFixed(2)}x the 2025 row: the least the 2026-07-28 row can be) |`);
  console.log(row(`spawn to first tools/list answer, ${copies.length} stepfiles (the catalog copied as a user's own, and the bench's)`, manyOpening2025, bare, "-"));
  const manyRatio = median(manyOpening2026) / median(manyOpening2025);
  console.log(row(`the same for a 2026-07-28 client, ${copies.length} stepfiles`, manyOpening2026, bare, `- (${manyRatio.toFixed(2)}x the 2025 row with as many)`));
  console.log(row(`of which the session's own process, ${copies.length} stepfiles`, manySession2026, bare, `- (${(median(manySession2026) / median(manyOpening2025)).toFixed(2)}x the 2025 row with as many)`));
  console.log(row("later tools/call starting a run (the floor)", col("laterStart"), undefined, "-"));
  console.log(row("first tools/call starting a run", col("firstStart"), col("laterStart"), verdict(startRatio <= 2, "<= 2x the later one")));
  console.log(row("later stepgate_call (the floor)", col("laterCall"), undefined, "-"));
  console.log(row("first stepgate_call", col("firstCall"), col("laterCall"), verdict(callRatio <= 2, "<= 2x the later one")));
  console.log(row("first tools/call starting a run, sent at once after tools/list", col("firstStart", atOnce), col("laterStart", atOnce), "- (what is still loading)"));
  console.log(
    `\nInterpretation: with a ${PAUSE_MS} ms pause after tools/list, the first run of a session starts in ${ms(median(col("firstStart")))} ms against ${ms(median(col("laterStart")))} ms for a later one (${startRatio.toFixed(2)}x), and its first stepgate_call takes ${ms(median(col("firstCall")))} ms against ${ms(median(col("laterCall")))} ms (${callRatio.toFixed(2)}x). A client that calls at once after tools/list waits for the MCP SDK, which loads only after the early answers, and for what is preloaded after it: ${ms(median(col("firstStart", atOnce)))} ms.`,
  );
} finally {
  api.close();
  rmSync(dir, { recursive: true, force: true });
}
