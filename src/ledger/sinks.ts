// Ledger sinks: one file per run with --ledger-dir, else standard error.
// Writes are synchronous so records land in order and survive a crash of
// the process right after a step.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { LedgerSink } from "./chain.js";

export type SinkFactory = (stepfile: string, run: string) => LedgerSink;

export function fileSinks(dir: string): SinkFactory {
  return (stepfile, run) => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${stepfile}-${run}.jsonl`);
    return {
      write(line) {
        try {
          appendFileSync(path, `${line}\n`);
        } catch (error) {
          // The folder was removed while the run went on: make it again
          // rather than lose the record (the earlier ones are gone with it).
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          mkdirSync(dir, { recursive: true });
          appendFileSync(path, `${line}\n`);
        }
      },
    };
  };
}

export function stderrSinks(): SinkFactory {
  return () => ({ write: (line) => void process.stderr.write(`${line}\n`) });
}

/** Keeps lines in memory: for tests and `--test`. */
export function memorySinks(store: Map<string, string[]> = new Map()): SinkFactory & { store: Map<string, string[]> } {
  const factory = ((stepfile: string, run: string) => {
    const lines: string[] = [];
    store.set(`${stepfile}-${run}`, lines);
    return { write: (line: string) => void lines.push(line) };
  }) as SinkFactory & { store: Map<string, string[]> };
  factory.store = store;
  return factory;
}
