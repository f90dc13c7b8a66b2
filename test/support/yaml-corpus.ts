// Every stepfile and cases file the repository holds, as text: what the
// YAML tests compare the parse of against the reference (yaml-reference.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SHARED_CONFORMANCE } from "./load-corpus.js";
import { REPO_ROOT } from "./paths.js";

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.(ya?ml|json)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Catalog entries, the compatibility corpus (stepfiles and cases files), the test fixtures, and the shared conformance suite's files where it is beside the clone (read in place). */
export const yamlCorpus: readonly string[] = [...["awesome-stepfiles", "test/compat/corpus", "test/fixtures"].map((d) => join(REPO_ROOT, d)), SHARED_CONFORMANCE].flatMap((d) => yamlFiles(d)).map((f) => readFileSync(f, "utf8"));
