// Group commit for the ledger folder: the fsyncs that make ended runs
// durable, shared between the runs that end while a sync is under way.
//
// Why: an fsync on this kind of disk takes milliseconds (about 4 ms for a
// file and 3 ms for the folder on the bench machine), and done synchronously
// per run it blocked the event loop, so every other request waited behind
// every run's syncs. Here syncs run on libuv's thread pool and at most one
// batch is in flight: runs that end while it runs wait for the next batch,
// whose file syncs go to the disk together (the filesystem folds them into
// one journal commit) with a single folder sync for every file created since
// the last one. Nobody waits for a timer: a lone run starts its batch at
// once. Node offers no group commit, and the libraries that do (databases)
// would replace the one-file-per-run ledger, so this is written here.
//
// The promise to callers: `sync(path)` resolves only once that file's data
// and the folder entries of every file created before the call are on disk,
// and rejects if its own fsync failed.
//
// Files are named by path, not by a descriptor held until the batch runs:
// fsync flushes the file, whichever descriptor asks, and a descriptor kept
// open per ending run made 2,000 runs abandoned at once (a DELETE, SIGTERM)
// run the process out of descriptors. A batch opens at most
// SYNC_CONCURRENCY files at a time, and a file it cannot open for want of
// descriptors (EMFILE, ENFILE: other connections hold them) is tried again
// shortly rather than reported as failed.
import { close, fsync, open } from "node:fs";
import { isOutOfDescriptors, waitForDescriptors } from "./descriptors.js";

/** Files a batch holds open at once. */
export const SYNC_CONCURRENCY = 32;

/** The file system calls a batch makes; tests replace them to see the order of events. */
export interface SyncCalls {
  /** Open the file, fsync it, close it. */
  syncFile(path: string): Promise<void>;
  /** fsync the folder (so new file names survive a power loss); may fail on platforms that cannot. */
  syncFolder(dir: string): Promise<void>;
}

export const nodeSyncCalls: SyncCalls = {
  syncFile: (path) =>
    new Promise((resolve, reject) => {
      open(path, "r+", (openError, fd) => {
        if (openError) return reject(openError);
        fsync(fd, (syncError) => close(fd, (closeError) => (syncError ?? closeError ? reject(syncError ?? closeError) : resolve())));
      });
    }),
  syncFolder: (dir) =>
    new Promise((resolve, reject) => {
      open(dir, "r", (openError, fd) => {
        if (openError) return reject(openError);
        fsync(fd, (syncError) => close(fd, () => (syncError ? reject(syncError) : resolve())));
      });
    }),
};

interface Waiter {
  path: string;
  resolve(): void;
  reject(error: unknown): void;
}

export class GroupSync {
  #waiting: Waiter[] = [];
  /** A file was created since the last folder sync started. */
  #folderDirty = false;
  #running: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly calls: SyncCalls = nodeSyncCalls,
  ) {}

  /** A new file's name is to reach the disk; nobody waits for it until a run in it ends. */
  created(): void {
    this.#folderDirty = true;
    this.#start();
  }

  /** Resolves when the file at `path` and the folder are on disk. */
  sync(path: string): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#waiting.push({ path, resolve, reject }));
    this.#start();
    return done;
  }

  /** Resolves once nothing is waiting or under way (for a clean shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #start(): void {
    this.#running ??= this.#drain().finally(() => (this.#running = undefined));
  }

  async #drain(): Promise<void> {
    while (this.#waiting.length > 0 || this.#folderDirty) {
      const batch = this.#waiting;
      this.#waiting = [];
      const folder = this.#folderDirty;
      this.#folderDirty = false;
      // The folder sync is best effort, as a file's own fsync still holds
      // where folders cannot be synced (Windows).
      await Promise.all([folder ? this.calls.syncFolder(this.dir).catch(() => undefined) : undefined, this.#syncFiles(batch)]);
    }
  }

  /** Every waiter's file, SYNC_CONCURRENCY at a time; each waiter settled as its own fsync went. */
  async #syncFiles(batch: Waiter[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const waiter = batch[next++]!;
        try {
          await this.#syncOne(waiter.path);
          waiter.resolve();
        } catch (error) {
          waiter.reject(error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, batch.length) }, worker));
  }

  async #syncOne(path: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.calls.syncFile(path);
      } catch (error) {
        if (!isOutOfDescriptors(error)) throw error;
        await waitForDescriptors(attempt, error);
      }
    }
  }
}
