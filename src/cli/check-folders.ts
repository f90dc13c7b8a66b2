// `stepgate --check <folder>`: a folder stands for the stepfiles and Arazzo
// documents below it, found by the names Stepgate's own docs and tools give
// them (`<id>.stepfile.yaml`, as stepgate_guide says to save a draft and the
// catalog names its entries; `arazzo.yaml` or `<name>.arazzo.yaml`, as the
// Arazzo specification recommends and Redocly's tools name them), so CI can
// check a repository's procedures without listing them. Cases files, mutants
// and OpenAPI documents beside them are not stepfiles and are left out by
// the same names. Folders named node_modules and dot-folders (.git) are not
// entered: they hold other people's files.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isStepfilePath } from "./catalog.js";

const CHECKED = /(^|\.)(stepfile|arazzo)\.(ya?ml|json)$/i;

export interface ExpandedArguments {
  /** Each argument as given, a folder replaced by its files (sorted). */
  files: string[];
  /** The folders that hold no such file: each is a report of its own. */
  empty: string[];
}

export function expandFolders(args: readonly string[]): ExpandedArguments {
  const files: string[] = [];
  const empty: string[] = [];
  for (const arg of args) {
    // A path named as a stepfile stays one, and a directory so named is refused for what it is (readBounded).
    if (isStepfilePath(arg) || !isFolder(arg)) {
      files.push(arg);
      continue;
    }
    const found = filesBelow(arg).sort();
    if (found.length === 0) empty.push(arg);
    files.push(...found);
  }
  return { files, empty };
}

/** Why a folder gives nothing to check, for its report. */
export const EMPTY_FOLDER = "holds no stepfile (<id>.stepfile.yaml, .yml or .json) and no Arazzo document (arazzo.yaml or <name>.arazzo.yaml, or .json) below it";

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function filesBelow(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) out.push(...filesBelow(path));
    } else if (CHECKED.test(entry.name) && (entry.isFile() || isFileThroughLink(path))) out.push(path);
  }
  return out;
}

function isFileThroughLink(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
