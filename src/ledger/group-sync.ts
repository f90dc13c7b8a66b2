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
// The promise to callers: `sync(fd)` resolves only once that file's data
// and the folder entries of every file created before the call are on disk,
// and rejects if its own fsync failed.
import { close, fsync, open } from "node:fs";

/** The file system calls a batch makes; tests replace them to see the order of events. */
export interface SyncCalls {
  /** fsync the open file, then close it. */
  syncFile(fd: number): Promise<void>;
  /** fsync the folder (so new file names survive a power loss); may fail on platforms that cannot. */
  syncFolder(dir: string): Promise<void>;
}

export const nodeSyncCalls: SyncCalls = {
  syncFile: (fd) =>
    new Promise((resolve, reject) => {
      fsync(fd, (syncError) => close(fd, (closeError) => (syncError ?? closeError ? reject(syncError ?? closeError) : resolve())));
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
  fd: number;
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

  /** Takes ownership of `fd` (closed once synced); resolves when it and the folder are on disk. */
  sync(fd: number): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#waiting.push({ fd, resolve, reject }));
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
      const [, ...files] = await Promise.allSettled([
        folder ? this.calls.syncFolder(this.dir).catch(() => undefined) : undefined,
        ...batch.map((w) => this.calls.syncFile(w.fd)),
      ]);
      files.forEach((result, i) => (result.status === "fulfilled" ? batch[i]!.resolve() : batch[i]!.reject(result.reason)));
    }
  }
}
