// One file per rule (issue 27, item 4): every rule that can be reported,
// error or warning, checked by the pass or by a step of the load, lives in
// src/loader/rules/<id>.ts, which exports it; no file there holds a rule
// the table does not list.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_RULES, ERROR_RULES, STAGE_RULES, WARNING_RULES } from "../../src/loader/rules/index.js";
import type { RuleInfo } from "../../src/loader/rules/rule.js";
import { REPO_ROOT } from "../support/paths.js";

const folder = join(REPO_ROOT, "src", "loader", "rules");
// The framework's own files: what a rule is, the table, the pass, what rules share.
const FRAMEWORK = ["rule.ts", "index.ts", "run.ts", "facts.ts"];

describe("src/loader/rules/", () => {
  it("holds each rule in a file named for its id, exporting it, and nothing else beside the framework", async () => {
    for (const rule of ALL_RULES) {
      const module = (await import(join(folder, `${rule.id}.ts`))) as Record<string, unknown>;
      expect(Object.values(module).filter((v) => (v as RuleInfo | undefined)?.id === rule.id), rule.id).toEqual([rule]);
    }
    const files = readdirSync(folder).filter((f) => f.endsWith(".ts") && !FRAMEWORK.includes(f));
    expect(files.sort()).toEqual(ALL_RULES.map((r) => `${r.id}.ts`).sort());
  });

  it("lists every id once, errors of the pass as errors, warnings as warnings", () => {
    expect(new Set(ALL_RULES.map((r) => r.id)).size).toBe(ALL_RULES.length);
    expect(ERROR_RULES.every((r) => r.severity === "error")).toBe(true);
    expect(WARNING_RULES.every((r) => r.severity === "warning")).toBe(true);
    expect(ALL_RULES).toHaveLength(STAGE_RULES.length + ERROR_RULES.length + WARNING_RULES.length);
  });
});
