// docs/checks.md lists every rule a finding can be reported under (the
// table in src/loader/rules/index.ts), each with a stepfile that breaks it
// and the same stepfile fixed: the first produces the rule's finding, the
// second no finding at all. A new rule fails this file until it is documented.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkArazzoDocument } from "../../src/arazzo/served-document.js";
import type { ListedMcpTool } from "../../src/loader/agent-writes.js";
import { fetchedFindings, fileFindings, textFindings, type Findings } from "../../src/loader/findings.js";
import { ALL_RULES } from "../../src/loader/rules/index.js";
import { REPO_ROOT } from "../support/paths.js";

interface Section {
  id: string;
  severity: "error" | "warning";
  wrong: string;
  fixed: string;
}

const doc = readFileSync(join(REPO_ROOT, "docs", "checks.md"), "utf8");

/** Each `### <id>` under `## Errors` or `## Warnings`, with its first two code blocks. */
function sections(): Section[] {
  const out: Section[] = [];
  let severity: Section["severity"] | undefined;
  for (const part of doc.split(/^(?=#{2,3} )/m)) {
    const heading = /^(#{2,3}) (.+)\n/.exec(part);
    if (!heading) continue;
    if (heading[1] === "##") {
      severity = heading[2] === "Errors" ? "error" : heading[2] === "Warnings" ? "warning" : undefined;
      continue;
    }
    if (!severity) continue;
    const blocks = [...part.matchAll(/^```(?:yaml|json)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    out.push({ id: heading[2]!, severity, wrong: blocks[0] ?? "", fixed: blocks[1] ?? "" });
  }
  return out;
}

/** The file-size example is checked with a small limit, as the doc says. */
const FILE_SIZE_LIMIT = 400;
const dir = mkdtempSync(join(tmpdir(), "stepgate-checks-doc-"));

/** An Arazzo section's example is checked as `--check` checks a document, beside the pet store document it names. */
const arazzoDir = mkdtempSync(join(tmpdir(), "stepgate-checks-doc-arazzo-"));
copyFileSync(join(REPO_ROOT, "test", "arazzo", "fixtures", "store.openapi.json"), join(arazzoDir, "store.openapi.json"));

async function findings(section: Section, text: string): Promise<Omit<Findings, "loaded"> & { loads: boolean }> {
  if (section.id.startsWith("arazzo-")) {
    const file = join(arazzoDir, "example.arazzo.yaml");
    writeFileSync(file, text);
    const { errors, warnings } = await checkArazzoDocument(file, text, {});
    return { errors, warnings, loads: errors.length === 0 };
  }
  const found = await stepfileFindings(section, text);
  return { ...found, loads: found.loaded !== undefined };
}

/** The tools/list a section's examples are checked against, as the section says: by rule id. */
const LISTINGS: Record<string, readonly ListedMcpTool[]> = {
  "exposes-in-mcp-listing": [
    { name: "search_issues", readOnly: true },
    { name: "create_issue", readOnly: false },
  ],
};

async function stepfileFindings(section: Section, text: string): Promise<Findings> {
  const listing = LISTINGS[section.id];
  if (listing) return fetchedFindings(text, "example", { listMcp: () => Promise.resolve(listing) });
  if (section.id !== "file-size") return textFindings(text, "example", { unfetched: "--offline skips fetching" });
  const file = join(dir, "example.stepfile.yaml");
  writeFileSync(file, text);
  return fileFindings(file, "example", FILE_SIZE_LIMIT);
}

const all = sections();

describe("docs/checks.md", () => {
  it("has one section for every rule that can be reported, under its severity, and none for a rule that does not exist", () => {
    expect(all.map((s) => s.id).sort()).toEqual(ALL_RULES.map((r) => r.id).sort());
    for (const rule of ALL_RULES) expect(all.find((s) => s.id === rule.id)!.severity, rule.id).toBe(rule.severity);
  });

  describe.each(all.map((s) => [s.id, s] as const))("%s", (_, section) => {
    it("its first example produces the finding, its second none", async () => {
      expect(section.wrong, "a wrong example").not.toBe("");
      expect(section.fixed, "a fixed example").not.toBe("");
      const wrong = await findings(section, section.wrong);
      const reported = [...wrong.errors, ...wrong.warnings];
      expect(reported.map((f) => f.rule), JSON.stringify(reported)).toContain(section.id);
      if (section.severity === "error") expect(wrong.loads).toBe(false);
      const fixed = await findings(section, section.fixed);
      expect([...fixed.errors, ...fixed.warnings]).toEqual([]);
      expect(fixed.loads).toBe(true);
    });
  });
});
