// `--watch`: reload a served stepfile when its file changes. A run in
// progress keeps the version it started with (runs hold their own
// LoadedStepfile). An edit that no longer loads is reported and the last good
// version stays served; a file that cannot be read makes its tool answer
// StepfileUnreadable until it can be read again.
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { StepfileUnreadable, StepgateError } from "../errors.js";
import { loadStepfileFile } from "../loader/load.js";
import type { ServedStepfiles } from "../mcp/served.js";
import { resolveArgument } from "./catalog.js";

/** Editors save by writing a new file and renaming it, so wait for the burst to settle. */
const SETTLE_MS = 100;

export function watchStepfiles(args: readonly string[], served: ServedStepfiles, log: (line: string) => void): () => void {
  const watchers: FSWatcher[] = [];
  const timers = new Set<NodeJS.Timeout>();
  for (const arg of args) {
    const file = resolve(resolveArgument(arg));
    let timer: NodeJS.Timeout | undefined;
    const reload = async () => {
      try {
        const loaded = await loadStepfileFile(file, arg);
        const refused = served.replace(arg, loaded);
        log(refused ? `stepgate: ${refused}` : `stepgate: reloaded ${arg} (${loaded.identity})`);
      } catch (error) {
        if (error instanceof StepfileUnreadable) {
          served.markUnreadable(arg, error);
          log(`StepfileUnreadable: ${error.message}`);
        } else {
          const name = error instanceof StepgateError ? error.name : "stepgate";
          log(`${name}: ${(error as Error).message}\nstepgate: keeping the previous version of ${arg}`);
        }
      }
    };
    // Watch the folder, not the file: a rename-on-save replaces the file's inode.
    const watcher = watch(dirname(file), (_event, name) => {
      if (name !== null && name !== basename(file)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timers.delete(timer!);
        void reload();
      }, SETTLE_MS);
      timers.add(timer);
    });
    watchers.push(watcher);
  }
  return () => {
    for (const w of watchers) w.close();
    for (const t of timers) clearTimeout(t);
  };
}
