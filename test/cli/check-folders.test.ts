// `stepgate --check <folder>` (the built CLI, as CI runs it): a folder stands
// for the stepfiles and Arazzo documents below it, found by their names,
// with cases files, mutants, OpenAPI documents, node_modules and dot-folders
// left out; a folder with none of them is an error of its own (exit 2).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stepgate } from "../offline/cli.js";
import { FOUR_MISTAKES, LEND_BOOKS } from "../support/lend-books.js";
import { REPO_ROOT } from "../support/paths.js";

interface Report {
  ok: boolean;
  errors: number;
  warnings: number;
  files: Array<{ file: string; valid: boolean; unreadable?: string; warnings: unknown[] }>;
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "stepgate-check-folder-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("stepgate --check with a folder", () => {
  it("checks every stepfile and Arazzo document below it, by name, and nothing else", async () => {
    const arazzo = readFileSync(join(REPO_ROOT, "test/arazzo/fixtures/buy-pet.arazzo.yaml"), "utf8");
    const root = tree({
      "lend.stepfile.yaml": LEND_BOOKS,
      "nested/deeper/mistake.stepfile.yml": FOUR_MISTAKES[0]!.text,
      "nested/lend.cases.yaml": "cases: []\n",
      "nested/lend.mutants.yaml": "accepted: []\n",
      "openapi.json": "{}",
      "notes.yaml": "not: a stepfile\n",
      "flows/buy-pet.arazzo.yaml": arazzo,
      "node_modules/dep/x.stepfile.yaml": "broken: [",
      ".git/y.stepfile.yaml": "broken: [",
    });
    const run = await stepgate("--check", "--json", root);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.files.map((f) => f.file)).toEqual([join(root, "flows/buy-pet.arazzo.yaml"), join(root, "lend.stepfile.yaml"), join(root, "nested/deeper/mistake.stepfile.yml")]);
    expect(report.files.find((f) => f.file.endsWith("mistake.stepfile.yml"))!.warnings).toHaveLength(1);
    expect(report.files.find((f) => f.file.endsWith("lend.stepfile.yaml"))!.warnings).toEqual([]);
    // Mixed with a file and a catalog name, each checked once.
    const mixed = await stepgate("--check", join(root, "nested"), "release-notes");
    expect(mixed.stdout.trim().split("\n").at(-1)).toBe("2 stepfiles checked: 0 errors, 1 warning");
  }, 60_000);

  it("is an error naming the folder when it holds nothing to check", async () => {
    const root = tree({ "lend.cases.yaml": "cases: []\n", "openapi.yaml": "openapi: 3.1.0\n" });
    const run = await stepgate("--check", root);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${root}: error: ${root} holds no stepfile (<id>.stepfile.yaml, .yml or .json) and no Arazzo document (arazzo.yaml or <name>.arazzo.yaml, or .json) below it`);
  }, 60_000);

  it("passes on the bundled catalog with --strict, as CI checks a repository of procedures", async () => {
    const run = await stepgate("--check", "--strict", "awesome-stepfiles");
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/^4\d stepfiles checked: 0 errors, 0 warnings$/);
  }, 120_000);
});
