// The bundled catalog, awesome-stepfiles/<category>/<name>/<name>.stepfile.yaml,
// and how a command-line argument names a stepfile: a path by its suffix,
// else a catalog name.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadStepfileFile, type LoadedStepfile } from "../loader/load.js";
import { packageRoot } from "./package-root.js";

export interface CatalogEntry {
  name: string;
  category: string;
  file: string;
}

export function catalogEntries(root = join(packageRoot(), "awesome-stepfiles")): CatalogEntry[] {
  if (!existsSync(root)) return [];
  const entries: CatalogEntry[] = [];
  for (const category of readdirSync(root).sort()) {
    const dir = join(root, category);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name, `${name}.stepfile.yaml`);
      if (existsSync(file)) entries.push({ name, category, file });
    }
  }
  return entries;
}

export function isStepfilePath(arg: string): boolean {
  return /\.(ya?ml|json)$/i.test(arg);
}

export class UnknownCatalogName extends Error {
  override readonly name = "UnknownCatalogName";
}

/** The file an argument names: itself when it is a path, else a catalog entry's file. */
export function resolveArgument(arg: string): string {
  if (isStepfilePath(arg)) return arg;
  const entry = catalogEntries().find((e) => e.name === arg);
  if (!entry) {
    throw new UnknownCatalogName(`${arg} is neither a stepfile path (.yaml, .yml, .json) nor a catalog name; stepgate --list shows the catalog`);
  }
  return entry.file;
}

/** Load one argument: a path, or a catalog entry's name. */
export async function loadArgument(arg: string): Promise<LoadedStepfile> {
  return loadStepfileFile(resolveArgument(arg), arg);
}
