// `--watch`: reload a served stepfile when its file changes. A run in
// progress keeps the version it started with (runs hold their own
// LoadedStepfile). An edit that no longer loads is reported and the last good
// version stays served; a file that cannot be read makes its tool answer
// StepfileUnreadable until it can be read again.
import { unwatchFile, watch, watchFile, type FSWatcher, type Stats } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { StepfileUnreadable, StepgateError } from "../errors.js";
import { loadStepfileFile, type LoadCache } from "../loader/load.js";
import { warningLines } from "./load-warnings.js";
import type { ServedStepfiles } from "../mcp/served.js";
import { resolveArgument } from "./catalog.js";

/**
 * Editors save by writing a new file and renaming it, or by truncating and
 * writing, so wait for the burst of events to settle: they come within a
 * few ms. Kept short, since a reload is what an author waits for after each
 * save (docs/performance.md); an edit read half-written is refused, kept
 * out, and read again whole at the next event.
 */
const SETTLE_MS = 20;

/** How often the fallback poll looks at each file (it also survives its folder being removed). */
const POLL_MS = 1_000;

export function watchStepfiles(args: readonly string[], served: ServedStepfiles, log: (line: string) => void, maxBytes?: number, cache?: LoadCache): () => void {
  const stops = args.map((arg) => watchOne(arg, resolve(resolveArgument(arg)), served, log, maxBytes, cache));
  return () => {
    for (const stop of stops) stop();
  };
}

function watchOne(arg: string, file: string, served: ServedStepfiles, log: (line: string) => void, maxBytes: number | undefined, cache: LoadCache | undefined): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const reload = async () => {
    try {
      const loaded = await loadStepfileFile(file, arg, maxBytes, cache);
      // The poll and the folder watcher both fire for one save; only a real change is news.
      if (served.isCurrent(arg, loaded.identity)) return;
      const refused = served.replace(arg, loaded);
      log(refused ? `stepgate: ${refused}` : `stepgate: reloaded ${arg} (${loaded.identity})`);
      if (refused) served.warn(refused);
      else {
        for (const line of warningLines(loaded.warnings, arg)) {
          log(line);
          served.warn(line);
        }
      }
    } catch (error) {
      if (error instanceof StepfileUnreadable) {
        if (served.markUnreadable(arg, error)) {
          log(`StepfileUnreadable: ${error.message}`);
          served.warn(`StepfileUnreadable: ${error.message}`);
        }
        return;
      }
      // The file can be read again, even if this version does not load.
      served.markReadable(arg);
      const name = error instanceof StepgateError ? error.name : "stepgate";
      log(`${name}: ${(error as Error).message}\nstepgate: keeping the previous version of ${arg}`);
      served.warn(`${name}: ${(error as Error).message}; keeping the previous version of ${arg}`);
    }
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void reload();
    }, SETTLE_MS);
  };
  // Watch the folder, not the file: a rename-on-save replaces the file's
  // inode. A folder that is removed (a branch checkout, a regenerated
  // folder) ends that watcher, so the poll below re-arms it when the folder
  // is back, and meanwhile notices the file itself.
  const arm = () => {
    if (watcher) return;
    try {
      watcher = watch(dirname(file), (_event, name) => {
        if (name === null || name === basename(file)) schedule();
      });
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
        schedule();
      });
    } catch {
      watcher = undefined;
    }
  };
  arm();
  const poll = (current: Stats, previous: Stats) => {
    arm();
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.nlink !== previous.nlink) schedule();
  };
  watchFile(file, { interval: POLL_MS, persistent: false }, poll);
  return () => {
    watcher?.close();
    unwatchFile(file, poll);
    if (timer) clearTimeout(timer);
  };
}
