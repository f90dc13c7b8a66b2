// A failing gate's diagnosis is its message, a space, then its explain: the
// catalog's gates read as text once the diagnosis is appended. A message that
// ends as a whole sentence ("the notes must name the version") runs into an
// explain that starts another ("the version 1.4.0 does not appear"), so a
// gate with an explain ends its message with ":" or ";", or with "is",
// which the explain completes ("this one is closed").
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { stepgate } from "../offline/cli.js";
import { REPO_ROOT } from "../support/paths.js";

const entries = catalogEntries(join(REPO_ROOT, "awesome-stepfiles"));
const SLOW = 120_000;

describe("the catalog's gate messages", () => {
  it("end where an explain can follow them", async () => {
    const runOn: string[] = [];
    for (const entry of entries) {
      const { doc } = await loadStepfileFile(entry.file, entry.name);
      for (const step of doc.steps) {
        for (const gate of step.gates ?? []) {
          if (gate.explain === undefined || gate.message === undefined) continue;
          if (!/(?:[:;]| is)$/.test(gate.message)) runOn.push(`${entry.name} ${step.id} ${gate.id}: ${JSON.stringify(gate.message)}`);
        }
      }
    }
    expect(runOn).toEqual([]);
  }, SLOW);

  it("read as text in release-notes' diagnoses, through the built CLI", async () => {
    const source = readFileSync(join(REPO_ROOT, "awesome-stepfiles/writing/release-notes/release-notes.cases.yaml"), "utf8");
    // The headline without the version, expected to pass: --test prints the diagnosis it got.
    const wrong = source.replace('output: { headline: "CSV export, faster search and a crash fix" }\n        expect: { fail: [names-version] }', 'output: { headline: "CSV export, faster search and a crash fix" }\n        expect: pass');
    expect(wrong).not.toBe(source);
    const file = join(mkdtempSync(join(tmpdir(), "stepgate-messages-")), "release-notes.cases.yaml");
    writeFileSync(file, wrong);
    const result = await stepgate("--test", "release-notes", file);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('names-version: the headline must name the version: "CSV export, faster search and a crash fix" does not contain v2.4.0\n');
  }, SLOW);
});
