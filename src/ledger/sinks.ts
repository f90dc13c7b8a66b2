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
// A file is open only while its record is written: an open run holds no
// descriptor. Out of descriptors (src/ledger/descriptors.ts), a run's first
// record refuses the run (ServerBusy, retryable, naming no path) and a later
// one waits, in order, until a descriptor is free; durable() waits for it.
// Out of space (or any other failed write: a quota, a read-only disk), a
// record is never left half written: the file is cut back to its last whole
// record, so it stays a valid prefix of its chain. A run's first record
// refuses the run (ServerBusy, as above); a later one stops the run with
// LedgerUnwritable (the engine tries its run_failed once more, which the
// space the cut freed may hold), and the operator is told which file and
// which record (`onFailure`): a record is never lost without a word.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { idForFileName } from "../format/stepfile-id.js";
import type { LedgerSink } from "./chain.js";
import { LedgerUnwritable, ServerBusy } from "../errors.js";
import { fsProblem } from "../whole-file.js";
import { isOutOfDescriptors, waitForDescriptors } from "./descriptors.js";
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
  /** Write all of `bytes` to the end of the open ledger file `fd` (write(2) may write part of them and then fail). */
  append?(fd: number, bytes: Buffer): void;
}

export const nodeCreateCalls: CreateCalls = {
  openNew: (path) => openSync(path, "wx"),
  write: writeAll,
  rename: renameSync,
  append: writeAll,
};

/** Told, in one line naming the file, of each record that could not be written. */
export type SinkFailure = (line: string) => void;

/** A run's last record, as canonical JSON spells its type (keys sorted, no spaces). */
const RUN_END = /"type":"run_(?:finished|failed|abandoned)"/;

export function fileSinks(dir: string, group: GroupSync = new GroupSync(dir), calls: CreateCalls = nodeCreateCalls, onFailure: SinkFailure = () => undefined): SinkFactory {
  return (stepfile, run) => {
    const name = `${idForFileName(stepfile)}-${run}.jsonl`;
    const path = join(dir, name);
    const temporary = join(dir, `.${name}.tmp`);
    let created = false;
    let synced: Promise<void> | undefined;
    // Records that met a process out of descriptors, written in order once it has some again.
    const waiting: Buffer[] = [];
    let flushing: Promise<void> | undefined;

    const put = (record: Buffer) => {
      const write = () => (created ? appendRecord(calls, path, record) : createWithRecord(calls, temporary, path, record));
      try {
        write();
      } catch (error) {
        // The folder was removed while the run went on: make it again
        // rather than lose the record (the earlier ones are gone with it).
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        mkdirSync(dir, { recursive: true });
        created = false;
        write();
      }
      if (!created) {
        created = true;
        group.created();
      }
      if (RUN_END.test(record.toString("utf8"))) {
        synced = group.sync(path);
        // Marked handled here: a failed sync surfaces through durable(), not as an unhandled rejection.
        synced.catch(() => undefined);
      }
    };

    const flush = async () => {
      for (let attempt = 0; waiting.length > 0; ) {
        try {
          put(waiting[0]!);
          waiting.shift();
          attempt = 0;
        } catch (error) {
          if (!isOutOfDescriptors(error)) throw error;
          await waitForDescriptors(attempt++, error);
        }
      }
    };

    /** A record that could not be written, said to the operator; what the engine is given instead. */
    const unwritten = (error: unknown, line: string): Error => {
      const seq = /"seq":(\d+)/.exec(line)?.[1];
      const type = /"type":"(\w+)"/.exec(line)?.[1];
      onFailure(`ledger ${created ? path : `${path} (not created)`}: record ${seq} (${type}) could not be written (${fsProblem(error)}); ${created ? "the file ends at the record before it" : "the run was not started"}`);
      // Nothing of this run is on disk: refuse to start it, as for descriptors.
      if (!created) return new ServerBusy(`the server cannot write ledgers for now (${fsProblem(error)})`);
      return new LedgerUnwritable(fsProblem(error));
    };

    return {
      write(line) {
        const record = Buffer.from(`${line}\n`, "utf8");
        // Behind records still waiting, so the file keeps the chain's order.
        if (waiting.length > 0) return void waiting.push(record);
        try {
          if (!created) mkdirSync(dir, { recursive: true });
          put(record);
        } catch (error) {
          // A system call's failure (it has a code: ENOSPC, EDQUOT, EROFS, ...) is worded for engine and operator; anything else is a defect and stays as it is.
          if (!isOutOfDescriptors(error)) throw typeof (error as NodeJS.ErrnoException).code === "string" ? unwritten(error, line) : error;
          // Nothing of this run is on disk yet: refuse to start it (the
          // client may try again) rather than hold a run with no ledger.
          if (!created) throw new ServerBusy("the server is out of file descriptors for now (too many open connections and files)");
          waiting.push(record);
          flushing = flush().finally(() => (flushing = undefined));
          flushing.catch(() => undefined);
        }
      },
      // Waits for records held back for want of descriptors, then for the closing record's sync.
      durable: async () => {
        while (flushing) await flushing;
        await synced;
      },
    };
  };
}

/** Appends one record to an existing ledger file, or leaves the file as it was: a write that fails midway (a full disk) is cut off again. */
function appendRecord(calls: CreateCalls, path: string, record: Buffer): void {
  const fd = openSync(path, "a");
  try {
    const size = fstatSync(fd).size;
    try {
      (calls.append ?? writeAll)(fd, record);
    } catch (error) {
      // Half a record would end the file in a line --verify cannot read; cutting it frees what it took.
      try {
        ftruncateSync(fd, size);
      } catch {
        // The cut failed too: --verify names this file's last line as torn.
      }
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A new ledger file holding its first record, made by writing `temporary`
 * and renaming it to `path`: the name appears with the record already in
 * it.
 */
function createWithRecord(calls: CreateCalls, temporary: string, path: string, record: Buffer): void {
  const fd = calls.openNew(temporary);
  try {
    calls.write(fd, record);
    calls.rename(temporary, path);
  } catch (error) {
    // Failed, not killed: leave nothing behind, so the next record can try again.
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    closeSync(fd);
  }
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
