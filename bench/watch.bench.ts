// `--watch`: how long after an edit of one served catalog entry is saved
// the client hears notifications/tools/list_changed. The built CLI serves
// the 28 catalog entries copied under new ids with --watch; each round
// edits one of them (its description, so the reload is a real change and a
// load cache miss) and times from the write to the notification. The floor
// is the same write seen by an fs.watch on the folder in this process:
// the least any watcher can take to notice it. Run with
//   node --import tsx bench/watch.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { catalogCopies, machineLine, median, ms, percentile, quick, times, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
const rounds = quick ? 2 : 40;
/** Between rounds: the watcher's settle time and its poll's duplicate reload (no news) pass before the next edit. */
const pauseMs = quick ? 300 : 400;

const dir = mkdtempSync(join(tmpdir(), "stepgate-watch-bench-"));
const ledgerDir = join(dir, "ledgers");
mkdirSync(ledgerDir);
const copiesDir = join(dir, "copies");
mkdirSync(copiesDir);
const copies = catalogCopies(copiesDir);
const originals = copies.map((file) => readFileSync(file, "utf8"));

/** The copy's text with `Edit <round>. ` before its description (a folded block scalar in YAML, a string in JSON), so its identity changes with `round`. */
function edited(index: number, round: number): string {
  const text = originals[index]!;
  const out = text.replace(/^description: >-\n( +)/m, (_, indent: string) => `description: >-\n${indent}Edit ${round}.\n${indent}`).replace(/^ {2}"description": "/m, `  "description": "Edit ${round}. `);
  if (out === text) throw new Error(`cannot edit the description of ${copies[index]}`);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Time from writing the file to an fs.watch event on its folder, in this process. */
async function floorOnce(file: string, text: string): Promise<number> {
  return new Promise((done) => {
    let started = 0;
    const watcher = watch(dirname(file), (_event, name) => {
      if (name !== basename(file)) return;
      watcher.close();
      done(performance.now() - started);
    });
    started = performance.now();
    writeFileSync(file, text);
  });
}

try {
  const client = new Client({ name: "watch-bench", version: "1.0.0" });
  let heard: (() => void) | undefined;
  client.setNotificationHandler("notifications/tools/list_changed", () => heard?.());
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "--watch", "--ledger-dir", ledgerDir, ...copies], env: { ...getDefaultEnvironment(), XDG_CACHE_HOME: join(dir, "cache") }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  await client.connect(transport);
  await client.listTools();
  await sleep(pauseMs);
  const reloads: number[] = [];
  const floors: number[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const index = round % copies.length;
      const notified = new Promise<number>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no tools/list_changed within 10 s of editing ${copies[index]}\nstderr: ${stderr}`)), 10_000);
        heard = () => {
          clearTimeout(timer);
          done(performance.now());
        };
      });
      const started = performance.now();
      writeFileSync(copies[index]!, edited(index, round));
      reloads.push((await notified) - started);
      heard = undefined;
      // The reloaded description is what tools/list now says.
      const tool = (await client.listTools()).tools.find((t) => t.name === basename(copies[index]!).replace(/\.stepfile\.(yaml|json)$/, ""));
      if (!tool?.description?.startsWith(`Edit ${round}. `)) throw new Error(`tools/list does not show edit ${round} of ${copies[index]}`);
      await sleep(pauseMs);
      // The floor, on another copy so the server's reload of it (no change of identity: the same text again) stays out of the way.
      const other = (index + 7) % copies.length;
      floors.push(await floorOnce(copies[other]!, readFileSync(copies[other]!, "utf8")));
      await sleep(pauseMs);
    }
  } finally {
    await client.close();
  }
  const reload = median(reloads);
  const floor = median(floors);
  console.log("## --watch: an edited catalog entry to tools/list_changed\n");
  console.log(
    `Method: the built CLI serves the 28 catalog entries copied under new ids (\`node bin/stepgate.js --watch --ledger-dir <tmp> <28 files>\`) to an MCP client over stdio. Each of ${rounds} rounds rewrites one copy with its description changed (a real change, so the reload is a full load of a text the load cache has not seen) and times from the write to the client's receipt of notifications/tools/list_changed, then checks tools/list shows the edit. The floor is the time from the same kind of write to an fs.watch event on the folder in the bench's own process. ${pauseMs} ms pass between writes.\n`,
  );
  console.log(machineLine() + "\n");
  console.log("| measurement | samples | median ms | p90 ms | min ms | ratio to floor | target |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  console.log(`| fs.watch event after a write (the floor) | ${floors.length} | ${ms(floor)} | ${ms(percentile(floors, 90))} | ${ms(Math.min(...floors))} | 1.00x | - |`);
  console.log(`| edit saved to tools/list_changed | ${reloads.length} | ${ms(reload)} | ${ms(percentile(reloads, 90))} | ${ms(Math.min(...reloads))} | ${times(reload / floor)} | ${verdict(reload <= 50, "<= 50 ms")} |`);
  console.log(
    `\nInterpretation: an edit is served ${ms(reload)} ms after it is written, at the median; noticing the write takes ${ms(floor)} ms. The rest is the watcher's settle time (20 ms, src/cli/watch.ts: editors save in a burst of events), reading and loading the edited entry in full in the warm server, and the notification over stdio.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
