// `stepgate --list` answers from an index of the catalog written at build
// time (dist/catalog-index.json, by scripts/build.ts) instead of loading
// every entry: loading and compiling the 28 entries was nearly all of what
// --list cost. An entry is answered from the index only when its stepfile's
// bytes hash to what the index recorded (a load depends on nothing but
// those bytes), and only by the build that wrote the index (BUILD_ID), so
// that the index can never describe code or entries other than the ones
// that run. Every other entry (edited, added, invalid, or no index at all,
// as when running from src/) is loaded as before.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { CatalogEntry } from "./catalog-entries.js";
import { BUILD_ID } from "./build-id.js";
import { packageRoot } from "./package-root.js";

/** What `--list` shows of an entry and filters it on. */
export interface ListedFacts {
  title?: string;
  description?: string;
  /** "needs: ..." as a person reads it (needsText). */
  needs: string;
  /** The environment variables it needs (environmentNeeds), as stepgate_examples lists them. */
  environment: string[];
  /** What the entry is built from (featureWords). */
  words: string[];
}

export interface CatalogIndex {
  /** The build that wrote it. */
  build: string;
  /** By the stepfile's path under the catalog folder, with "/" between parts; valid entries only. */
  entries: Record<string, { sha256: string; listed: ListedFacts }>;
}

export const CATALOG_INDEX_FILE = "catalog-index.json";

export function contentHash(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function indexKey(root: string, file: string): string {
  return relative(root, file).split(sep).join("/");
}

let built: { index: CatalogIndex | undefined } | undefined;

/** builtCatalogIndex, read once per process: the bundle and its index do not change while it runs. */
export function builtCatalogIndexOnce(): CatalogIndex | undefined {
  built ??= { index: builtCatalogIndex() };
  return built.index;
}

/** The index the running bundle was built with, or undefined when there is none for it. */
export function builtCatalogIndex(): CatalogIndex | undefined {
  if (BUILD_ID === undefined) return undefined;
  try {
    const index = JSON.parse(readFileSync(join(packageRoot(), "dist", CATALOG_INDEX_FILE), "utf8")) as CatalogIndex;
    return index.build === BUILD_ID ? index : undefined;
  } catch {
    return undefined;
  }
}

/** The entry's facts from the index, when the index has them for the stepfile's bytes as they are now. */
export function indexedFacts(index: CatalogIndex | undefined, root: string, entry: CatalogEntry): ListedFacts | undefined {
  const known = index?.entries[indexKey(root, entry.file)];
  if (!known) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(entry.file);
  } catch {
    return undefined;
  }
  return contentHash(bytes) === known.sha256 ? known.listed : undefined;
}

/** indexedFacts with the file read asynchronously, for a server answering while other requests wait. */
export async function readIndexedFacts(index: CatalogIndex | undefined, root: string, entry: CatalogEntry): Promise<ListedFacts | undefined> {
  const known = index?.entries[indexKey(root, entry.file)];
  if (!known) return undefined;
  const bytes = await readFile(entry.file).catch(() => undefined);
  return bytes && contentHash(bytes) === known.sha256 ? known.listed : undefined;
}
