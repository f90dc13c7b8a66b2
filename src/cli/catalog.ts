// The bundled catalog, awesome-stepfiles/<domain>/<name>/<name>.stepfile.yaml
// (or .stepfile.json), and how a command-line argument names a stepfile: a
// path by its suffix, else a catalog name.
import { loadStepfileFile, loadStepfileFileDeferred, type DeferredLoad, type LoadCache, type LoadedStepfile } from "../loader/load.js";
import { closestNames } from "../format/closest-names.js";
import { capText } from "../quote.js";
import { catalogEntries, type CatalogEntry } from "./catalog-entries.js";

export { catalogEntries, catalogRoot, type CatalogEntry } from "./catalog-entries.js";

export function isStepfilePath(arg: string): boolean {
  return /\.(ya?ml|json)$/i.test(arg);
}

export class UnknownCatalogName extends Error {
  override readonly name = "UnknownCatalogName";
}

/** Entries that were renamed, so an old configuration gets told the new name rather than "not found". */
const RENAMED: Readonly<Record<string, string>> = {
  "npm-upgrade-plan": "dependency-upgrade-plan (it now plans upgrades for npm, PyPI, Go, Maven, Cargo and NuGet through deps.dev; give it system: npm)",
};

/** The catalog entry an argument names; throws UnknownCatalogName, with the closest names, when none does. */
export function catalogEntry(arg: string, entries = catalogEntries()): CatalogEntry {
  const entry = entries.find((e) => e.name === arg);
  if (entry) return entry;
  const renamed = RENAMED[arg];
  if (renamed !== undefined) throw new UnknownCatalogName(`catalog entry ${arg} was renamed ${renamed}`);
  const near = closestNames(arg, entries.map((e) => e.name));
  const hint = near.length > 0 ? `; did you mean ${near.join(" or ")}?` : "";
  throw new UnknownCatalogName(`${capText(arg)} is neither a stepfile path (.yaml, .yml, .json) nor a catalog name${hint} (stepgate --list shows the catalog)`);
}

/** The catalog's entries, found once per process: each name argument would otherwise walk the catalog folder again. */
let entriesFound: CatalogEntry[] | undefined;

/** The file an argument names: itself when it is a path, else a catalog entry's file. */
export function resolveArgument(arg: string): string {
  return isStepfilePath(arg) ? arg : catalogEntry(arg, (entriesFound ??= catalogEntries())).file;
}

/** Load one argument: a path, or a catalog entry's name; over `maxBytes` it is refused before parsing. */
export async function loadArgument(arg: string, maxBytes?: number, cache?: LoadCache): Promise<LoadedStepfile> {
  return loadStepfileFile(resolveArgument(arg), arg, maxBytes, cache);
}

/** loadArgument with its warnings found later (serving, after the first tools/list answer). */
export async function loadArgumentDeferred(arg: string, maxBytes?: number, cache?: LoadCache): Promise<DeferredLoad> {
  return loadStepfileFileDeferred(resolveArgument(arg), arg, maxBytes, cache);
}
