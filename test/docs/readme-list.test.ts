// README.md shows a sample of `--list`: the lines it shows are the real
// output's, in order, starting where the output starts (`...` stands for
// lines left out). The command is run as the README gives it.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.js";

describe("README's --list sample", () => {
  it("is what `node bin/stepgate.js --list` prints, with left-out lines as ...", async () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(readme).toContain("run `node bin/stepgate.js --list`");
    const sample = /`node bin\/stepgate\.js --list keyless`\):\n\n```\n([\s\S]*?)```/.exec(readme)![1]!.trimEnd().split("\n");
    const { stdout } = await promisify(execFile)(process.execPath, ["bin/stepgate.js", "--list"], { cwd: REPO_ROOT });
    const real = stdout.trimEnd().split("\n");
    // Each stretch between `...` lines is a stretch of the output, after the one before it; the first opens the output.
    let from = 0;
    let first = true;
    for (const stretch of sample.join("\n").split(/^\s*\.\.\.$/m).map((s) => s.split("\n").filter((l) => l !== ""))) {
      if (stretch.length === 0) continue;
      const at = real.findIndex((line, i) => i >= from && stretch.every((l, j) => real[i + j] === l));
      expect(at, `README lines not in the output, in order:\n${stretch.join("\n")}`).toBeGreaterThanOrEqual(from);
      if (first) expect(at).toBe(0);
      first = false;
      from = at + stretch.length;
    }
  });
});
