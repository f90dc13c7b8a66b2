// What `stepgate --list` shows of a catalog entry, found by loading it:
// for entries the build-time index cannot answer for (src/cli/catalog-index.ts),
// and by the build, to write that index.
import { readFileSync } from "node:fs";
import { loadStepfileFile } from "../loader/load.js";
import { catalogEntries, type CatalogEntry } from "./catalog-entries.js";
import { entryFacts, featureWords, needsText } from "./catalog-facts.js";
import { contentHash, indexKey, type CatalogIndex, type ListedFacts } from "./catalog-index.js";

/** Loads the entry; throws what loading it throws. */
export async function loadListedFacts(entry: CatalogEntry): Promise<ListedFacts> {
  const { doc } = await loadStepfileFile(entry.file, entry.name);
  const facts = entryFacts(doc, entry.file);
  return {
    ...(doc.title !== undefined ? { title: doc.title } : {}),
    ...(doc.description !== undefined ? { description: doc.description } : {}),
    needs: needsText(facts),
    environment: facts.needs,
    words: featureWords(facts),
  };
}

/** The index of every entry under `root` that loads; an invalid one is left out, so --list loads it and says why. */
export async function catalogIndex(root: string, build: string): Promise<CatalogIndex> {
  const entries: CatalogIndex["entries"] = {};
  for (const entry of catalogEntries(root)) {
    const sha256 = contentHash(readFileSync(entry.file));
    try {
      entries[indexKey(root, entry.file)] = { sha256, listed: await loadListedFacts(entry) };
    } catch {
      continue;
    }
  }
  return { build, entries };
}
