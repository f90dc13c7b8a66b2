// `--watch`: reload a served stepfile when its file changes. A run in
// progress keeps the version it started with (runs hold their own
// LoadedStepfile). An edit that no longer loads is reported and the last good
// version stays served; a file that cannot be read makes its tool answer
// StepfileUnreadable until it can be read again. An Arazzo document is
// converted again when it or a local file it reads (a source description, an
// Arazzo source) changes, and its workflows replace the ones it served: one
// may have been added or removed.
import { resolve } from "node:path";
import { StepfileUnreadable, StepgateError } from "../errors.js";
import type { ServedDocument } from "../arazzo/served-document.js";
import { loadStepfileFile, readStepfileText, type LoadCache } from "../loader/load.js";
import { warningLines } from "./load-warnings.js";
import type { ServedStepfiles } from "../mcp/served.js";
import { resolveArgument } from "./catalog.js";
import { watchPath } from "./watch-path.js";

/**
 * Editors save by writing a new file and renaming it, or by truncating and
 * writing, so wait for the burst of events to settle: they come within a
 * few ms. Kept short, since a reload is what an author waits for after each
 * save (docs/performance.md); an edit read half-written is refused, kept
 * out, and read again whole at the next event.
 */
const SETTLE_MS = 20;

/** The Arazzo arguments served, each with the local files it read, and how serving converts one again. */
export interface WatchedDocuments {
  files: ReadonlyMap<string, readonly string[]>;
  load(arg: string, text: string): Promise<ServedDocument>;
}

export function watchStepfiles(args: readonly string[], served: ServedStepfiles, log: (line: string) => void, maxBytes?: number, cache?: LoadCache, documents?: WatchedDocuments): () => void {
  const stops = args.map((arg) => {
    const beside = documents?.files.get(arg);
    const file = resolve(resolveArgument(arg));
    return beside === undefined ? watchOne(file, stepfileReload(arg, file, served, log, maxBytes, cache)) : watchDocument(arg, file, beside, served, log, maxBytes, documents!);
  });
  return () => {
    for (const stop of stops) stop();
  };
}

/** Watch `files`, running `reload` once a burst of changes has settled. */
function watchOne(file: string, reload: () => Promise<void>): () => void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void reload();
    }, SETTLE_MS);
  };
  const stop = watchPath(file, schedule);
  return () => {
    stop();
    if (timer) clearTimeout(timer);
  };
}

function stepfileReload(arg: string, file: string, served: ServedStepfiles, log: (line: string) => void, maxBytes: number | undefined, cache: LoadCache | undefined): () => Promise<void> {
  return () =>
    reloading(arg, served, log, async () => {
      const loaded = await loadStepfileFile(file, arg, maxBytes, cache);
      // The poll and the folder watcher both fire for one save; only a real change is news.
      if (served.isCurrent(arg, loaded.identity)) return;
      const refused = served.replace(arg, loaded);
      told(refused ?? `reloaded ${arg} (${loaded.identity})`, refused !== undefined, served, log);
      if (!refused) for (const line of warningLines(loaded.warnings, arg)) told(line, true, served, log, "");
    });
}

/** The document and every local file its last good conversion read; a file it reads after an edit is watched from then on. */
function watchDocument(arg: string, file: string, beside: readonly string[], served: ServedStepfiles, log: (line: string) => void, maxBytes: number | undefined, documents: WatchedDocuments): () => void {
  const stops = new Map<string, () => void>();
  const reload = () =>
    reloading(arg, served, log, async () => {
      const document = await documents.load(arg, await readStepfileText(file, arg, maxBytes));
      for (const f of document.files) if (!stops.has(f)) stops.set(f, watchOne(f, reload));
      // A workflow an edit broke keeps its last good version, as a stepfile does; one no longer in the document goes.
      const kept = document.refused.flatMap((source) => {
        const loaded = served.loadedFrom(source);
        return loaded ? [{ source, loaded }] : [];
      });
      for (const { source } of kept) told(`keeping the previous version of ${source}`, true, served, log);
      const next = [...document.workflows, ...kept];
      if (served.isCurrentDocument(arg, next)) return;
      const refused = served.replaceDocument(arg, next);
      told(refused ?? `reloaded ${arg} (${document.workflows.map((w) => `${w.source.slice(arg.length + 1)} ${w.loaded.identity}`).join(", ")})`, refused !== undefined, served, log);
      if (!refused) for (const w of document.workflows) for (const line of warningLines([...w.notes, ...w.loaded.warnings], w.source)) told(line, true, served, log, "");
    });
  for (const f of [file, ...beside]) if (!stops.has(f)) stops.set(f, watchOne(f, reload));
  return () => {
    for (const stop of stops.values()) stop();
  };
}

/** One reload of `arg`: a file that cannot be read makes its tools answer StepfileUnreadable; one that does not load keeps the last good version. */
async function reloading(arg: string, served: ServedStepfiles, log: (line: string) => void, reload: () => Promise<void>): Promise<void> {
  try {
    await reload();
  } catch (error) {
    if (error instanceof StepfileUnreadable) {
      if (served.markUnreadable(arg, error)) told(`StepfileUnreadable: ${error.message}`, true, served, log, "");
      return;
    }
    // The file can be read again, even if this version does not load.
    served.markReadable(arg);
    const name = error instanceof StepgateError ? error.name : "stepgate";
    log(`${name}: ${(error as Error).message}\nstepgate: keeping the previous version of ${arg}`);
    served.warn(`${name}: ${(error as Error).message}; keeping the previous version of ${arg}`);
  }
}

/** A line on standard error (`stepgate: ` first unless `prefix` says otherwise), and to clients too when it is a warning. */
function told(line: string, warning: boolean, served: ServedStepfiles, log: (line: string) => void, prefix = "stepgate: "): void {
  log(`${prefix}${line}`);
  if (warning) served.warn(line);
}
