// The stepfiles a server offers, which `--watch` may replace while it runs.
// A run keeps the LoadedStepfile it started with, so replacing an entry
// never changes a run in progress.
import { StepfileUnreadable } from "../errors.js";
import type { LoadedStepfile } from "../loader/load.js";

interface Entry {
  loaded: LoadedStepfile;
  /** Set while the file cannot be read: starting a run then fails with this. */
  unreadable?: StepfileUnreadable;
}

export class ServedStepfiles {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  private readonly warningListeners = new Set<(text: string) => void>();
  /** Bumped at every change, so what is derived from the list (the tools/list answer) can be kept until then. */
  private changes = 0;

  constructor(initial: ReadonlyArray<{ source: string; loaded: LoadedStepfile }>) {
    for (const { source, loaded } of initial) this.entries.set(source, { loaded });
  }

  list(): LoadedStepfile[] {
    return [...this.entries.values()].map((e) => e.loaded);
  }

  get version(): number {
    return this.changes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The stepfile serving tool `id`, or why it cannot start now. */
  byId(id: string): Entry | undefined {
    return [...this.entries.values()].find((e) => e.loaded.doc.id === id);
  }

  /** Replace the stepfile read from `source`; refuses an id another file already serves. */
  replace(source: string, loaded: LoadedStepfile): string | undefined {
    const clash = [...this.entries].find(([s, e]) => s !== source && e.loaded.doc.id === loaded.doc.id);
    if (clash) return `${source} now has id ${loaded.doc.id}, which ${clash[0]} already serves; keeping the previous version`;
    this.entries.set(source, { loaded });
    this.changed();
    return undefined;
  }

  /**
   * Replace every stepfile an Arazzo document `path` serves (`<path>#<workflowId>`)
   * with its new workflows: one may have been added or removed. Refuses an id
   * another file serves, keeping the previous ones.
   */
  replaceDocument(path: string, next: ReadonlyArray<{ source: string; loaded: LoadedStepfile }>): string | undefined {
    for (const { source, loaded } of next) {
      const clash = [...this.entries].find(([s, e]) => !ofDocument(s, path) && e.loaded.doc.id === loaded.doc.id);
      if (clash) return `${source} now has id ${loaded.doc.id}, which ${clash[0]} already serves; keeping the previous version of ${path}`;
    }
    for (const s of [...this.entries.keys()]) if (ofDocument(s, path)) this.entries.delete(s);
    for (const { source, loaded } of next) this.entries.set(source, { loaded });
    this.changed();
    return undefined;
  }

  /** What `source` serves now, if anything. */
  loadedFrom(source: string): LoadedStepfile | undefined {
    return this.entries.get(source)?.loaded;
  }

  /** Whether the document `path` serves exactly these workflows, readable, at these identities. */
  isCurrentDocument(path: string, next: ReadonlyArray<{ source: string; loaded: LoadedStepfile }>): boolean {
    const served = [...this.entries.keys()].filter((s) => ofDocument(s, path));
    return served.length === next.length && next.every(({ source, loaded }) => this.isCurrent(source, loaded.identity));
  }

  /** Whether `source` is served, readable, at this identity. */
  isCurrent(source: string, identity: string): boolean {
    const entry = this.entries.get(source);
    return entry !== undefined && entry.unreadable === undefined && entry.loaded.identity === identity;
  }

  /** Every stepfile read from `source` (a stepfile, or each workflow of an Arazzo document) cannot be read now; returns whether this is news (they were readable until now). */
  markUnreadable(source: string, error: StepfileUnreadable): boolean {
    const entries = this.readFrom(source).filter((e) => !e.unreadable);
    for (const entry of entries) entry.unreadable = error;
    if (entries.length > 0) this.changed();
    return entries.length > 0;
  }

  /** The file can be read again (though its new text may not load): serve the last good version. */
  markReadable(source: string): void {
    const entries = this.readFrom(source).filter((e) => e.unreadable);
    for (const entry of entries) delete entry.unreadable;
    if (entries.length > 0) this.changed();
  }

  private readFrom(source: string): Entry[] {
    return [...this.entries].filter(([s]) => s === source || ofDocument(s, source)).map(([, e]) => e);
  }

  /** Listeners registered with onChange: one per live server, so tests can see none is left behind. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A served file changed in a way its clients should hear of (under --watch: it stopped loading, or no longer can be read). */
  warn(text: string): void {
    for (const listener of this.warningListeners) listener(text);
  }

  onWarning(listener: (text: string) => void): () => void {
    this.warningListeners.add(listener);
    return () => this.warningListeners.delete(listener);
  }

  private changed() {
    this.changes += 1;
    for (const listener of this.listeners) listener();
  }
}

/** A workflow of the Arazzo document `path` is served as `<path>#<workflowId>` (src/arazzo/served-document.ts). */
function ofDocument(source: string, path: string): boolean {
  return source.startsWith(`${path}#`);
}
