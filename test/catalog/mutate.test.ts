// Every catalog entry under `stepgate --test --mutate`: its gates refuse
// every wrong output derived from its own cases, or its authors accepted
// the survivor with a reason in <name>.mutants.yaml beside the cases. The
// same code as the CLI (mutateFile), with the CLI's defaults; a failure
// lists each survivor as the text report would, with the output that got
// through, so the gate to add can be read off it. It passes once the
// catalog's entries are fixed (issue 26's findings) or their harmless
// survivors accepted; it is not to be weakened to pass before.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog.js";
import { DEFAULT_LIMITS } from "../../src/limits.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { mutateFile } from "../../src/offline/mutate/index.js";
import { capText } from "../../src/quote.js";
import { REPO_ROOT } from "../support/paths.js";

const SLOW = 180_000;
const entries = catalogEntries(join(REPO_ROOT, "awesome-stepfiles"));

describe.each(entries)("catalog entry $name under --mutate", (entry) => {
  it("lets no wrong output through that its authors have not accepted, and every case replays", async () => {
    const { report } = await mutateFile(await loadStepfileFile(entry.file, entry.name), entry.file, { limits: DEFAULT_LIMITS });
    expect(report.skipped).toEqual([]);
    expect(report.mutants).toBeGreaterThan(0);
    const survivors = report.survivors.map((s) => `case "${s.case}" entry ${s.entry}, step ${s.step}, ${s.path}: ${s.mutation}, ${s.change}; passed: ${capText(JSON.stringify(s.output))}`);
    expect(survivors).toEqual([]);
  }, SLOW);
});
