// Every stepfile and cases file the repository holds, as text: what the
// YAML tests compare the parse of against the reference (yaml-reference.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./paths.js";

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.(ya?ml|json)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Catalog entries, the compatibility corpus (stepfiles and cases files) and the test fixtures. */
export const yamlCorpus: readonly string[] = ["awesome-stepfiles", "test/compat/corpus", "test/fixtures"].flatMap((d) => yamlFiles(join(REPO_ROOT, d))).map((f) => readFileSync(f, "utf8"));
