// Vitest's global setup: every process the tests start, the built CLI
// included, keeps its load cache (src/cli/load-cache.ts) in a folder of
// this run, never in the developer's ~/.cache. Workers inherit the
// variable; a spawn with a minimal environment passes it on through
// cliEnvironment() (test/support/stepgate.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-test-cache-"));
  process.env.XDG_CACHE_HOME = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
