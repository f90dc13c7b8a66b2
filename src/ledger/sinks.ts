// Ledger sinks: one file per run with --ledger-dir, else standard error.
//
// Crash consistency: each record is one line written by one write(2) to a
// file opened O_APPEND, so a process killed at any moment (SIGKILL
// included) leaves every file a sequence of whole records, a valid prefix
// of its chain that --verify accepts. Writes are synchronous so records land
// in order. fsync policy: the file is fsynced when a run's last record
// (run_finished, run_failed, run_abandoned) is written, and the folder when
// a run's file is created, so a finished run survives a power loss too;
// records in between reach the OS at once (a killed process loses none)
// but the disk at the OS's pace.
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { LedgerSink } from "./chain.js";

export type SinkFactory = (stepfile: string, run: string) => LedgerSink;

/** A run's last record, as canonical JSON spells its type (keys sorted, no spaces). */
const RUN_END = /"type":"run_(?:finished|failed|abandoned)"/;

export function fileSinks(dir: string): SinkFactory {
  return (stepfile, run) => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${stepfile}-${run}.jsonl`);
    let created = false;
    return {
      write(line) {
        const record = Buffer.from(`${line}\n`, "utf8");
        try {
          appendRecord(path, record, RUN_END.test(line));
        } catch (error) {
          // The folder was removed while the run went on: make it again
          // rather than lose the record (the earlier ones are gone with it).
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          mkdirSync(dir, { recursive: true });
          appendRecord(path, record, RUN_END.test(line));
        }
        if (!created) {
          created = true;
          syncFolder(dir);
        }
      },
    };
  };
}

/** One write(2) for the whole record; the loop only runs again after a short write (a full disk, say). */
function appendRecord(path: string, record: Buffer, sync: boolean): void {
  const fd = openSync(path, "a");
  try {
    let written = 0;
    while (written < record.length) written += writeSync(fd, record, written, record.length - written);
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a new file's name durable; folders cannot be opened for fsync on every platform, which is not worth failing a run over. */
function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows: the file's own fsync at run end still holds.
  }
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
