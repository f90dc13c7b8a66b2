// The package's own folder, found from this file whether it runs compiled
// (dist/src/cli) or from source (src/cli): the catalog and version live there.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "stepgate") return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find the stepgate package folder");
    dir = up;
  }
}

let version: string | undefined;

/** Read once per process: the serve path asks for it on every run's toolbox. */
export function packageVersion(): string {
  return (version ??= (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version);
}
