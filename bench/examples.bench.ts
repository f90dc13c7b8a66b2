// stepgate_examples without a name, as an authoring agent calls it: an MCP
// client over stdio asks the built CLI for the catalog list. The floor is
// an MCP ping in the same session (the round trip with no work). Measured:
// the first call, later calls, and a ping sent while the list is being
// answered (what the event loop lets through meanwhile). Beside it, what
// listing cost before the build's index answered for the entries: loading
// every entry in this process. Run with
//   node --import tsx bench/examples.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { listExamples } from "../src/authoring/examples.js";
import { catalogEntries } from "../src/cli/catalog.js";
import { benchEnvironment, machineLine, median, ms, percentile, quick } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const rounds = quick ? 3 : 200;

const client = new Client({ name: "examples-bench", version: "0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin], env: benchEnvironment() }));

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const list = () => client.callTool({ name: "stepgate_examples", arguments: {} });
// The first request after the early answers waits for the MCP SDK to load (src/stdio/early.ts): not this tool's cost.
const handover = await timed(() => client.ping());
const first = await timed(list);
const pings: number[] = [];
const calls: number[] = [];
const pingsDuring: number[] = [];
for (let i = 0; i < rounds; i++) {
  pings.push(await timed(() => client.ping()));
  calls.push(await timed(list));
  // A ping sent right behind the call: answered only when the server's loop is free.
  const [, during] = await Promise.all([list(), timed(() => client.ping())]);
  pingsDuring.push(during);
}
const answer = (await list()) as { structuredContent: { examples: unknown[] } };
await client.close();

// Before: every entry loaded (parsed, checked, compiled) to list it.
const entries = catalogEntries();
const loads: number[] = [];
for (let i = 0; i < (quick ? 1 : 5); i++) loads.push(await timed(() => listExamples(entries)));

const floor = median(pings);
const row = (what: string, samples: readonly number[]) => `| ${what} | ${ms(median(samples))} ms | ${ms(percentile(samples, 99))} ms | ${(median(samples) / floor).toFixed(1)} |`;
process.stdout.write(
  [
    `## stepgate_examples without a name (${answer.structuredContent.examples.length} catalog entries)`,
    "",
    machineLine(),
    "",
    `Over stdio to the built CLI, ${rounds} rounds after a first call; the floor is an MCP ping in the same session. The last row loads every entry in this process, as listing did before the build's catalog index answered for unchanged entries.`,
    "",
    "| what | median | p99 | × floor |",
    "|---|---|---|---|",
    row("ping (floor)", pings),
    `| first ping (waits for the SDK to load) | ${ms(handover)} ms | | ${(handover / floor).toFixed(1)} |`,
    `| first stepgate_examples | ${ms(first)} ms | | ${(first / floor).toFixed(1)} |`,
    row("stepgate_examples", calls),
    row("ping sent behind a stepgate_examples", pingsDuring),
    row("every entry loaded instead (in process)", loads),
    "",
  ].join("\n"),
);
