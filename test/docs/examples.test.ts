// The YAML examples in the docs are loaded by the real loader, so they cannot
// rot: every block that is a whole stepfile must load, and a cases file shown
// right after one must agree with it under `stepgate --test`'s engine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadStepfileFile, loadStepfileText, type LoadedStepfile } from "../../src/loader/load.js";
import { parseCases, runCases } from "../../src/offline/index.js";
import { MUTATION_NAMES, parseAccepted } from "../../src/offline/mutate/index.js";
import { REPO_ROOT } from "../support/paths.js";

interface Block {
  doc: string;
  line: number;
  text: string;
}

function yamlBlocks(doc: string): Block[] {
  const text = readFileSync(join(REPO_ROOT, doc), "utf8");
  const blocks: Block[] = [];
  const fence = /^```yaml\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(fence)) blocks.push({ doc, line: text.slice(0, m.index).split("\n").length, text: m[1]! });
  return blocks;
}

const blocks = ["docs/stepfile.md", "README.md"].flatMap(yamlBlocks);
const isStepfile = (b: Block) => /^stepgate: "1"$/m.test(b.text);
const stepfiles = blocks.filter(isStepfile);

describe("documentation examples", () => {
  it("include whole stepfiles in both docs", () => {
    expect(new Set(stepfiles.map((b) => b.doc))).toEqual(new Set(["docs/stepfile.md", "README.md"]));
  });

  it.each(stepfiles.map((b) => [`${b.doc}:${b.line}`, b]))("%s loads", (_, block) => {
    expect(() => loadStepfileText(block.text, `${block.doc}:${block.line}`)).not.toThrow();
  });

  it("cases files shown after a stepfile agree with it", async () => {
    let last: LoadedStepfile | undefined;
    let checked = 0;
    for (const block of blocks) {
      if (isStepfile(block)) last = loadStepfileText(block.text, block.doc);
      else if (/^cases:$/m.test(block.text) && last) {
        const report = await runCases(last, parseCases(block.text, `${block.doc}:${block.line}`, last), { callsPerStep: 100, toolResultChars: 20_000 });
        expect(report.ok, JSON.stringify(report, null, 2)).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("an accepted-mutants file shown is one --mutate reads, for the catalog entry it names", async () => {
    const accepts = blocks.filter((b) => /^accept:$/m.test(b.text));
    expect(accepts.length).toBeGreaterThan(0);
    const releaseNotes = await loadStepfileFile(join(REPO_ROOT, "awesome-stepfiles/writing/release-notes/release-notes.stepfile.yaml"));
    for (const block of accepts) expect(parseAccepted(block.text, `${block.doc}:${block.line}`, releaseNotes, MUTATION_NAMES).entries.length).toBeGreaterThan(0);
  });
});
