// Noticing that one file changed, however an editor or a checkout changes
// it (used by --watch, src/cli/watch.ts). Watch the folder, not the file: a
// rename-on-save replaces the file's inode. A folder that is removed (a
// branch checkout, a regenerated folder) ends that watcher, so a poll
// re-arms it when the folder is back, and meanwhile notices the file itself.
import { unwatchFile, watch, watchFile, type FSWatcher, type Stats } from "node:fs";
import { basename, dirname } from "node:path";

/** How often the fallback poll looks at the file (it also survives its folder being removed). */
const POLL_MS = 1_000;

/** Calls `changed` (perhaps more than once for one save) whenever `file` may have changed; returns how to stop. */
export function watchPath(file: string, changed: () => void): () => void {
  let watcher: FSWatcher | undefined;
  const arm = () => {
    if (watcher) return;
    try {
      watcher = watch(dirname(file), (_event, name) => {
        if (name === null || name === basename(file)) changed();
      });
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
        changed();
      });
    } catch {
      watcher = undefined;
    }
  };
  arm();
  const poll = (current: Stats, previous: Stats) => {
    arm();
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.nlink !== previous.nlink) changed();
  };
  watchFile(file, { interval: POLL_MS, persistent: false }, poll);
  return () => {
    watcher?.close();
    unwatchFile(file, poll);
  };
}
