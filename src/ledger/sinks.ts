// Ledger sinks: one file per run with --ledger-dir, else standard error.
//
// Crash consistency: each record is one line written by one write(2) to a
// file opened O_APPEND, so a process killed at any moment (SIGKILL
// included) leaves every file a sequence of whole records, a valid prefix
// of its chain that --verify accepts. A file is created together with its
// first record: the record is written to a hidden temporary file
// (`.<name>.tmp`) that is then renamed to the ledger's name, so a process
// killed between creating a file and writing to it leaves no ledger file
// at all (at most that temporary file), never an empty one. Writes are synchronous so records land
// in order. fsync policy (group commit, src/ledger/group-sync.ts): when a
// run's last record (run_finished, run_failed, run_abandoned) is written,
// its file is fsynced, together with the folder if a file was created since
// the folder's last sync, in a batch shared with the other runs ending then;
// `durable()` resolves once that is done, and the engine sends the reply
// that says the run ended only after it. A new file's folder entry is synced
// in the background as soon as it is created. Records in between reach the
// OS at once (a killed process loses none) but the disk at the OS's pace.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { idForFileName } from "../format/stepfile-id.js";
import type { LedgerSink } from "./chain.js";
import { GroupSync } from "./group-sync.js";

export type SinkFactory = (stepfile: string, run: string) => LedgerSink;

/** The file system calls that create a ledger file with its first record; tests replace them to stop at each step. */
export interface CreateCalls {
  /** Create `path`, which must not exist, and return it open for writing. */
  openNew(path: string): number;
  /** Write all of `bytes` to `fd`. */
  write(fd: number, bytes: Buffer): void;
  /** Give the file at `from` the name `to`, at once. */
  rename(from: string, to: string): void;
}

export const nodeCreateCalls: CreateCalls = {
  openNew: (path) => openSync(path, "wx"),
  write: writeAll,
  rename: renameSync,
};

/** A run's last record, as canonical JSON spells its type (keys sorted, no spaces). */
const RUN_END = /"type":"run_(?:finished|failed|abandoned)"/;

export function fileSinks(dir: string, group: GroupSync = new GroupSync(dir), calls: CreateCalls = nodeCreateCalls): SinkFactory {
  return (stepfile, run) => {
    mkdirSync(dir, { recursive: true });
    const name = `${idForFileName(stepfile)}-${run}.jsonl`;
    const path = join(dir, name);
    const temporary = join(dir, `.${name}.tmp`);
    let created = false;
    let synced: Promise<void> | undefined;
    return {
      write(line) {
        const record = Buffer.from(`${line}\n`, "utf8");
        const last = RUN_END.test(line);
        const put = () => (created ? appendRecord(path, record) : createWithRecord(calls, temporary, path, record));
        let fd: number;
        try {
          fd = put();
        } catch (error) {
          // The folder was removed while the run went on: make it again
          // rather than lose the record (the earlier ones are gone with it).
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          mkdirSync(dir, { recursive: true });
          created = false;
          fd = put();
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

/** Appends one record to an existing ledger file. Returns the open file. */
function appendRecord(path: string, record: Buffer): number {
  const fd = openSync(path, "a");
  try {
    writeAll(fd, record);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/**
 * A new ledger file holding its first record, made by writing `temporary`
 * and renaming it to `path`: the name appears with the record already in
 * it. Returns the open file (renaming keeps it open on the same file).
 */
function createWithRecord(calls: CreateCalls, temporary: string, path: string, record: Buffer): number {
  const fd = calls.openNew(temporary);
  try {
    calls.write(fd, record);
    calls.rename(temporary, path);
  } catch (error) {
    closeSync(fd);
    // Failed, not killed: leave nothing behind, so the next record can try again.
    rmSync(temporary, { force: true });
    throw error;
  }
  return fd;
}

/** One write(2) for the whole record; the loop only runs again after a short write (a full disk, say). */
function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
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
