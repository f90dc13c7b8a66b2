// Where the repository and its built CLI are, found from this file so tests
// work whatever directory vitest was started in.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The CLI entry point as published: package.json `bin.stepgate`, so tests run what users run. */
export function stepgateBin(): string {
  const pkg = JSON.parse(readFileSync(resolve(REPO_ROOT, "package.json"), "utf8")) as { bin?: { stepgate?: string } };
  const bin = pkg.bin?.stepgate;
  if (!bin) throw new Error("package.json has no bin.stepgate");
  return resolve(REPO_ROOT, bin);
}
