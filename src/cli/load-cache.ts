// The load cache: what a full load of a stepfile's text established (its
// document, identity and warnings, and that every check passed; see
// CheckedStepfile in src/loader/load.ts), kept on disk so that the next
// process serving the same text only compiles it. Parsing and checking the
// 28 catalog entries was most of a cold start (issue 20); a hit skips both.
//
// An entry is found by a key made of the text itself, the build of the
// bundle (BUILD_ID: any change to the code is a new build, so to the
// loader's findings too) and the Node version; nothing else a load reads.
// It lives under $XDG_CACHE_HOME/stepgate (an absolute one), else
// ~/.cache/stepgate, in a folder per build, made 0700 and used only when
// it belongs to this user and no one else may write to it: an entry is
// trusted as a passed check. Each entry names its key and the SHA-256 of its
// body, so a corrupt entry, or one copied from another key, is a miss, and
// the full load rewrites it (written whole to a temporary file, then renamed).
// The build writes entries for the bundled catalog beside the bundle
// (dist/loads/, scripts/build.ts), so the first launch after a build starts
// as fast as later ones; they are read first and never written. `--no-cache`
// turns all of this off. Running from src/ there is no build, so no cache.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { Issue } from "../errors.js";
import type { CheckedStepfile, LoadCache } from "../loader/load.js";
import { BUILD_ID } from "./build-id.js";
import { packageRoot } from "./package-root.js";

/** Names the entry format; a change to it is a change of key. */
const FORMAT = "stepgate-load-cache/1";

/** Folders of other builds left untouched this long are removed when a new build's folder is made. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/** Past this many entries in a build's folder (each save under --watch writes one), the older half is removed, once per process, on a write. */
const MOST_ENTRIES = 2_000;

/** Where the build puts the catalog's entries, under the package folder. */
export const SHIPPED_LOADS = join("dist", "loads");

/** The key of a text's entry for a build and Node version: the entry's file name, and the first thing in it. */
export function cacheKey(text: string, build: string, node = process.version): string {
  return createHash("sha256").update(`${FORMAT}\0${build}\0${node}\0`).update(text).digest("hex");
}

/** The user's cache folder for Stepgate: $XDG_CACHE_HOME/stepgate when it is absolute (as the XDG spec requires), else ~/.cache/stepgate. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "stepgate");
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  return home ? join(home, ".cache", "stepgate") : undefined;
}

/**
 * An entry as written: a header line naming the key and the SHA-256 of the
 * body, then the body, the CheckedStepfile as JSON. Undefined when the
 * document would not come back the same from JSON (numbers JSON has no
 * spelling for, a `__proto__` key): such a text is simply loaded in full
 * every time.
 */
export function entryText(key: string, checked: CheckedStepfile): string | undefined {
  if (!sameFromJson(checked.doc)) return undefined;
  const body = JSON.stringify({ doc: checked.doc, identity: checked.identity, warnings: checked.warnings });
  return `${JSON.stringify({ format: FORMAT, key, sha256: sha256(body) })}\n${body}`;
}

/** The entry's CheckedStepfile when it is whole and is the entry for `key`; undefined for anything else. */
export function readEntry(text: string, key: string): CheckedStepfile | undefined {
  const newline = text.indexOf("\n");
  if (newline === -1) return undefined;
  try {
    const header = JSON.parse(text.slice(0, newline)) as { format?: unknown; key?: unknown; sha256?: unknown };
    const body = text.slice(newline + 1);
    if (header.format !== FORMAT || header.key !== key || header.sha256 !== sha256(body)) return undefined;
    const checked = JSON.parse(body) as Partial<CheckedStepfile>;
    if (typeof checked.doc !== "object" || checked.doc === null || Array.isArray(checked.doc) || typeof checked.identity !== "string") return undefined;
    if (!Array.isArray(checked.warnings) || !checked.warnings.every(isIssue)) return undefined;
    return checked as CheckedStepfile;
  } catch {
    return undefined;
  }
}

/**
 * The cache for this process: entries shipped with the build, then the
 * user's folder. Undefined without a build. A folder that cannot be made or
 * is not safe to trust leaves only the shipped entries.
 */
export function openLoadCache(env: NodeJS.ProcessEnv = process.env, build = BUILD_ID): LoadCache | undefined {
  if (build === undefined) return undefined;
  const shipped = join(packageRoot(), SHIPPED_LOADS);
  const root = cacheRoot(env);
  const own = root === undefined ? undefined : join(root, "loads", build);
  /** Whether `own` may be read and written; settled on first use. */
  let usable: boolean | undefined;
  let trimmed = false;
  const ready = (): boolean => (usable ??= own !== undefined && prepare(root!, own));
  return {
    get(text) {
      const key = cacheKey(text, build);
      return readFrom(join(shipped, `${key}.json`), key) ?? (ready() ? readFrom(join(own!, `${key}.json`), key) : undefined);
    },
    set(text, checked) {
      if (!ready()) return;
      const key = cacheKey(text, build);
      const entry = entryText(key, checked);
      if (entry === undefined) return;
      if (!trimmed) {
        trimmed = true;
        trim(own!);
      }
      writeWhole(join(own!, `${key}.json`), entry);
    },
  };
}

function readFrom(file: string, key: string): CheckedStepfile | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  return readEntry(text, key);
}

/** Makes the build's folder (0700) and says whether it is ours alone; removes other builds' folders gone stale. */
function prepare(root: string, own: string): boolean {
  let made: string | undefined;
  try {
    made = mkdirSync(own, { recursive: true, mode: 0o700 });
    // Every folder from the cache root down must be ours and closed to others: an entry is trusted as a passed check.
    for (const dir of [root, join(root, "loads"), own]) {
      const stat = statSync(dir);
      if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0) return false;
    }
  } catch {
    return false;
  }
  if (made !== undefined) removeStale(join(root, "loads"), own);
  return true;
}

function removeStale(loads: string, own: string): void {
  try {
    for (const name of readdirSync(loads)) {
      const dir = join(loads, name);
      if (dir !== own && Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
    }
  } catch {
    // Another process may be removing the same folders; a stale folder left is harmless.
  }
}

/** Removes the older half of a folder's entries (by when each was written) once it holds more than MOST_ENTRIES. */
function trim(dir: string): void {
  try {
    const names = readdirSync(dir);
    if (names.length <= MOST_ENTRIES) return;
    const written = names.map((name) => ({ file: join(dir, name), at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
    for (const { file } of written.slice(0, Math.floor(written.length / 2))) rmSync(file, { force: true });
  } catch {
    // Another process trimming the same folder: what is left is still valid.
  }
}

/** Writes the file whole or not at all (a temporary file, 0600, renamed over it), so a reader never sees half an entry. */
function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const fd = openSync(temporary, "wx", 0o600);
    try {
      writeSync(fd, text);
      if ((fstatSync(fd).mode & 0o077) !== 0) throw new Error("the entry is readable by others");
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch {
    // A full disk or a read-only folder: the next start loads in full, as with no cache.
    rmSync(temporary, { force: true });
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function isIssue(value: unknown): value is Issue {
  if (typeof value !== "object" || value === null) return false;
  const issue = value as Record<string, unknown>;
  return typeof issue.path === "string" && typeof issue.message === "string" && (issue.line === undefined || typeof issue.line === "number") && (issue.column === undefined || typeof issue.column === "number") && (issue.rule === undefined || typeof issue.rule === "string");
}

/** Whether JSON.parse(JSON.stringify(value)) is the same data: finite numbers other than -0, and no `__proto__` key (JSON.parse makes it an own field). */
function sameFromJson(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return true;
  if (Array.isArray(value)) return value.every(sameFromJson);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const [key, inner] of Object.entries(value)) if (key === "__proto__" || !sameFromJson(inner)) return false;
  return true;
}
