// Ledger sinks: one file per run with --ledger-dir, else standard error.
//
// Crash consistency: each record is one line written by one write(2) to a
// file opened O_APPEND, so a process killed at any moment (SIGKILL
// included) leaves every file a sequence of whole records, a valid prefix
// of its chain that --verify accepts. Writes are synchronous so records land
// in order. fsync policy (group commit, src/ledger/group-sync.ts): when a
// run's last record (run_finished, run_failed, run_abandoned) is written,
// its file is fsynced, together with the folder if a file was created since
// the folder's last sync, in a batch shared with the other runs ending then;
// `durable()` resolves once that is done, and the engine sends the reply
// that says the run ended only after it. A new file's folder entry is synced
// in the background as soon as it is created. Records in between reach the
// OS at once (a killed process loses none) but the disk at the OS's pace.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { LedgerSink } from "./chain.js";
import { GroupSync } from "./group-sync.js";

export type SinkFactory = (stepfile: string, run: string) => LedgerSink;

/** A run's last record, as canonical JSON spells its type (keys sorted, no spaces). */
const RUN_END = /"type":"run_(?:finished|failed|abandoned)"/;

export function fileSinks(dir: string, group: GroupSync = new GroupSync(dir)): SinkFactory {
  return (stepfile, run) => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${stepfile}-${run}.jsonl`);
    let created = false;
    let synced: Promise<void> | undefined;
    return {
      write(line) {
        const record = Buffer.from(`${line}\n`, "utf8");
        const last = RUN_END.test(line);
        let fd: number;
        try {
          fd = appendRecord(path, record);
        } catch (error) {
          // The folder was removed while the run went on: make it again
          // rather than lose the record (the earlier ones are gone with it).
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          mkdirSync(dir, { recursive: true });
          created = false;
          fd = appendRecord(path, record);
        }
        if (!created) {
          created = true;
          group.created();
        }
        if (last) {
          synced = group.sync(fd);
          // Marked handled here: a failed sync surfaces through durable(), not as an unhandled rejection.
          synced.catch(() => undefined);
        } else closeSync(fd);
      },
      durable: () => synced ?? Promise.resolve(),
    };
  };
}

/** One write(2) for the whole record; the loop only runs again after a short write (a full disk, say). Returns the open file. */
function appendRecord(path: string, record: Buffer): number {
  const fd = openSync(path, "a");
  try {
    let written = 0;
    while (written < record.length) written += writeSync(fd, record, written, record.length - written);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
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
