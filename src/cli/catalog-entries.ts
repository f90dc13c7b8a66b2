// The bundled catalog's entries, awesome-stepfiles/<domain>/<name>/<name>.stepfile.yaml
// (or .stepfile.json). Apart from src/cli/catalog.ts so that `--list`,
// which answers from the build-time index when it can, does not load the
// loader just to find the entries.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

export interface CatalogEntry {
  name: string;
  /** The entry's domain: the folder it sits in (engineering, finance, ...). */
  category: string;
  file: string;
}

/** The stepfile names an entry folder may hold, in the order they are looked for. */
const STEPFILE_SUFFIXES = [".stepfile.yaml", ".stepfile.json"];

export function catalogRoot(): string {
  return join(packageRoot(), "awesome-stepfiles");
}

export function catalogEntries(root = catalogRoot()): CatalogEntry[] {
  if (!existsSync(root)) return [];
  const entries: CatalogEntry[] = [];
  for (const category of readdirSync(root).sort()) {
    const dir = join(root, category);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir).sort()) {
      const file = STEPFILE_SUFFIXES.map((suffix) => join(dir, name, `${name}${suffix}`)).find((f) => existsSync(f));
      if (file) entries.push({ name, category, file });
    }
  }
  return entries;
}

