// The load cache: what a full load of a stepfile's text found, kept on disk
// so that the next process serving the same text skips the work a full
// load does only for the author (issue 20: parsing and checking the 28
// catalog entries was most of a cold start).
//
// Nothing a process of the user can write decides what runs (issue 29; the
// threat model is in docs/architecture.md, "The load cache"). The user's
// folder ($XDG_CACHE_HOME/stepgate, an absolute one, else ~/.cache/stepgate,
// a folder per build, 0700) is writable by anything running as the user,
// an agent with a shell included, and no key such a process cannot read
// exists on the machine, so its entries keep only findings: the identity
// the full load computed and its warnings with their positions. On a hit
// the loader reads the document from the text again, runs every check that
// can refuse it and compares the identity (src/loader/load.ts, recheck). The
// build's own entries for the bundled catalog (dist/loads/, written by
// scripts/build.ts) keep the whole checked document, and are used only
// when their SHA-256 is the one the build put into the bundle
// (shipped-loads.ts): forging one means changing the bundle's code.
//
// An entry is found by a key made of the text, the build (BUILD_ID) and the
// Node version. Each names its key and the SHA-256 of its body; anything
// that does not read back whole, is not a regular file, or is larger than
// an entry can be, is a miss, never an error: the full load runs and
// rewrites it (written whole to a temporary file, then renamed).
// `--no-cache` turns all of this off. Running from src/ there is no build,
// so no cache.
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { Issue } from "../errors.js";
import { isStepfileId } from "../format/stepfile-id.js";
import type { StepfileDocument } from "../format/types.js";
import type { CachedLoad, CheckedStepfile, LoadCache } from "../loader/load.js";
import { capText, LISTED_ISSUES } from "../quote.js";
import { BUILD_ID } from "./build-id.js";
import { packageRoot } from "./package-root.js";
import { SHIPPED_LOAD_DIGESTS } from "./shipped-loads.js";
import { writeWholeFile } from "../whole-file.js";

/** Names the entry format; a change to it is a change of key. */
const FORMAT = "stepgate-load-cache/2";

/** The largest entry read from the user's folder: findings only (warnings are capped at LISTED_ISSUES when written), so anything larger was not written by this code. */
const MOST_FINDINGS_BYTES = 1024 * 1024;

/** The largest shipped entry read: a whole document, at most --max-stepfile-bytes' default as JSON and then some. */
const MOST_SHIPPED_BYTES = 16 * 1024 * 1024;

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
 * A user's entry as written: a header line naming the key and the SHA-256
 * of the body, then the body, the findings as JSON (at most LISTED_ISSUES
 * warnings, each message capped). Undefined when it would be too large to
 * be read back: such a text is simply loaded in full every time.
 */
export function entryText(key: string, checked: CheckedStepfile): string | undefined {
  const warnings = checked.warnings.slice(0, LISTED_ISSUES).map((w) => ({ ...w, path: capText(w.path), message: capText(w.message, 2_000) }));
  return sealed(key, JSON.stringify({ identity: checked.identity, warnings }), MOST_FINDINGS_BYTES);
}

/**
 * An entry the build ships: the whole CheckedStepfile. Undefined when the
 * document would not come back the same from JSON (numbers JSON has no
 * spelling for, a `__proto__` key) or its id is not a stepfile id.
 */
export function shippedEntryText(key: string, checked: CheckedStepfile): string | undefined {
  if (!sameFromJson(checked.doc) || !isStepfileId(checked.doc.id)) return undefined;
  return sealed(key, JSON.stringify({ doc: checked.doc, identity: checked.identity, warnings: checked.warnings }), MOST_SHIPPED_BYTES);
}

function sealed(key: string, body: string, most: number): string | undefined {
  const entry = `${JSON.stringify({ format: FORMAT, key, sha256: sha256(body) })}\n${body}`;
  return Buffer.byteLength(entry) > most ? undefined : entry;
}

/** The findings a user's entry holds when it is whole and is the entry for `key`; undefined for anything else. Whatever else the body holds is ignored. */
export function readEntry(text: string, key: string): CachedLoad | undefined {
  const body = bodyOf(text, key) as { identity?: unknown; warnings?: unknown } | undefined;
  if (body === undefined || typeof body.identity !== "string" || !Array.isArray(body.warnings) || !body.warnings.every(isIssue)) return undefined;
  return { kind: "findings", identity: body.identity, warnings: body.warnings as Issue[] };
}

/** A shipped entry's CheckedStepfile when the bundle vouches for its exact bytes (`digest`, from the build) and it is the entry for `key`. */
export function readShippedEntry(text: string, key: string, digest: string | undefined): CachedLoad | undefined {
  if (digest === undefined || sha256(text) !== digest) return undefined;
  // The whole text is the build's, byte for byte, so the body's own digest in the header need not be computed again.
  const body = bodyOf(text, key, true) as Partial<CheckedStepfile> | undefined;
  if (body === undefined || typeof body.doc !== "object" || body.doc === null || Array.isArray(body.doc) || typeof body.identity !== "string") return undefined;
  if (!isStepfileId((body.doc as StepfileDocument).id) || !Array.isArray(body.warnings) || !body.warnings.every(isIssue)) return undefined;
  return { kind: "vouched", doc: body.doc as StepfileDocument, identity: body.identity, warnings: body.warnings };
}

/** The parsed body of an entry whose header names this format, `key` and the body's SHA-256 (taken as read when `vouched`: the bundle names the whole text's digest). */
function bodyOf(text: string, key: string, vouched = false): unknown {
  const newline = text.indexOf("\n");
  if (newline === -1) return undefined;
  try {
    const header = JSON.parse(text.slice(0, newline)) as { format?: unknown; key?: unknown; sha256?: unknown };
    const body = text.slice(newline + 1);
    if (header.format !== FORMAT || header.key !== key || (!vouched && header.sha256 !== sha256(body))) return undefined;
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
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
      const fromBuild = readSmall(join(shipped, `${key}.json`), MOST_SHIPPED_BYTES);
      const vouched = fromBuild === undefined ? undefined : readShippedEntry(fromBuild, key, SHIPPED_LOAD_DIGESTS[key]);
      if (vouched) return vouched;
      const mine = ready() ? readSmall(join(own!, `${key}.json`), MOST_FINDINGS_BYTES) : undefined;
      return mine === undefined ? undefined : readEntry(mine, key);
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

/**
 * The text of a regular file of at most `most` bytes, else undefined. Opened
 * without blocking (an entry that is a FIFO would wait for a writer
 * forever) and read no further than its size allows.
 */
function readSmall(file: string, most: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > most) return undefined;
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let total = 0;
    for (let read = -1; read !== 0 && total < buffer.length; total += read) read = readSync(fd, buffer, total, buffer.length - total, null);
    return total > stat.size ? undefined : buffer.toString("utf8", 0, total);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
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

/** Writes the entry whole or not at all (src/whole-file.ts), so a reader never sees half an entry, even on a full disk. */
function writeWhole(file: string, text: string): void {
  try {
    writeWholeFile(file, text, { mode: 0o600 });
  } catch {
    // A full disk or a read-only folder: the next start loads in full, as with no cache.
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
