// `npm run bench -- --quick` runs every bench once with tiny counts, so a
// change that breaks a bench (a renamed export, a CLI flag, a stepfile the
// loader now refuses) fails here rather than on the next full bench run.
// Nothing about timing is checked: the numbers of a quick run mean nothing.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

describe("npm run bench -- --quick", () => {
  it(
    "runs every bench/*.bench.ts to a markdown section and leaves docs/performance.md alone",
    async () => {
      const doc = join(root, "docs", "performance.md");
      const before = readFileSync(doc, "utf8");
      const benches = readdirSync(join(root, "bench")).filter((name) => name.endsWith(".bench.ts"));
      // Each bench spawns servers and CLI processes: on a loaded 2-core machine a quick run can take minutes.
      // A failed bench still prints its section (with its error): show it rather than only the exit code.
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "bench/run.ts", "--quick"], { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 1_500_000 }).catch(
        (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}\n${error.stderr ?? ""}` }),
      );
      expect(stdout).toContain(`- Benches: ${benches.length}, failed: 0`);
      expect(stdout).not.toContain(": FAILED");
      // One `## ` section per bench, after the document's own title, and the "what we changed" section from bench/changes.md.
      expect(stdout.match(/^## /gm)?.length).toBe(benches.length + 1);
      expect(stdout).toContain("## What we changed and what it bought");
      expect(readFileSync(doc, "utf8")).toBe(before);
    },
    1_600_000,
  );
});
