// The whole catalog under `stepgate --test --mutate` (one process, every
// entry's cases mutated with the defaults) beside plain `stepgate --test` of
// every entry (one process each, as CI runs them), through the built CLI,
// and the same two in this process (no start-up, the engine's work alone).
// The target (issue 26): the whole catalog mutated in at most 60 s on a
// 2-core machine. Run with
//   node --import tsx bench/mutate.bench.ts [--quick]
// It prints a markdown section; nothing here is a timed assertion.
import { join, resolve } from "node:path";
import { catalogEntries } from "../src/cli/catalog.js";
import { DEFAULT_LIMITS } from "../src/limits.js";
import { loadStepfileFile } from "../src/loader/load.js";
import { readCasesFile, runCases } from "../src/offline/index.js";
import { mutateFile } from "../src/offline/mutate/index.js";
import { machineLine, quick, timedNode, verdict } from "./support.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "stepgate.js");
// --quick: one entry, so the suite's smoke run stays short.
const entries = quick ? catalogEntries().slice(0, 1) : catalogEntries();
const rounds = quick ? 1 : 2;
const seconds = (msValue: number) => (msValue / 1000).toFixed(2);
const best = (samples: readonly number[]) => Math.min(...samples);

const mutateCli: number[] = [];
const testCli: number[] = [];
for (let round = 0; round < rounds; round++) {
  mutateCli.push(await timedNode([bin, "--test", "--mutate", ...entries.map((e) => e.name)], root));
  let total = 0;
  for (const entry of entries) total += await timedNode([bin, "--test", entry.name], root);
  testCli.push(total);
}

// In process: the same work without a process start per entry.
let mutants = 0;
let killed = 0;
const mutateIn: number[] = [];
const testIn: number[] = [];
const loaded = await Promise.all(entries.map(async (e) => ({ entry: e, stepfile: await loadStepfileFile(e.file, e.name) })));
for (let round = 0; round < rounds; round++) {
  let started = performance.now();
  for (const { entry, stepfile } of loaded) await runCases(stepfile, await readCasesFile(join(entry.file, "..", `${entry.name}.cases.yaml`), stepfile), DEFAULT_LIMITS);
  testIn.push(performance.now() - started);
  started = performance.now();
  mutants = 0;
  killed = 0;
  for (const { entry, stepfile } of loaded) {
    const { report } = await mutateFile(stepfile, entry.file, { limits: DEFAULT_LIMITS });
    mutants += report.mutants;
    killed += report.killed;
  }
  mutateIn.push(performance.now() - started);
}

process.stdout.write(
  [
    `## The catalog under stepgate --test --mutate (${entries.length} entries)`,
    "",
    machineLine(),
    "",
    `Best of ${rounds} rounds. The CLI rows spawn the built CLI: --mutate once over every entry, plain --test once per entry (summed). The in-process rows are the same work in this process, cases files read and every entry loaded beforehand. ${mutants} mutants were played (${killed} killed), each a run of its case cut at the mutated entry, through the real engine and the replay toolbox.`,
    "",
    "| what | seconds | × plain --test (CLI) |",
    "|---|---|---|",
    `| stepgate --test, every entry (one process each) | ${seconds(best(testCli))} | 1.0 |`,
    `| stepgate --test --mutate, the whole catalog (one process) | ${seconds(best(mutateCli))} | ${(best(mutateCli) / best(testCli)).toFixed(1)} |`,
    `| every entry's cases, in process | ${seconds(best(testIn))} | ${(best(testIn) / best(testCli)).toFixed(2)} |`,
    `| every entry mutated, in process | ${seconds(best(mutateIn))} | ${(best(mutateIn) / best(testCli)).toFixed(1)} |`,
    "",
    quick ? "(--quick: one entry, no verdict.)" : verdict(best(mutateCli) <= 60_000, "The whole catalog mutated in at most 60 s"),
    "",
  ].join("\n"),
);
