// `stepgate --check` (the built CLI, as CI runs it) and stepgate_validate
// (an MCP client over stdio) report the same findings: the four mistakes of
// issue 19, each with file:line:column and what to write instead, and the
// exit codes CI acts on.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepgate } from "../offline/cli.js";
import { FOUR_MISTAKES, LEND_BOOKS, LEND_BOOKS_FILE, pointedAt } from "../support/lend-books.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-check-"));
const files = FOUR_MISTAKES.map((m, i) => {
  const file = join(dir, `mistake-${i}.stepfile.yaml`);
  writeFileSync(file, m.text);
  return file;
});
const invalid = join(dir, "invalid.stepfile.yaml");
writeFileSync(invalid, 'stepgate: "1"\nid: Lend\ninputs: { type: object }\nsteps: []\n');

interface Finding {
  path: string;
  message: string;
  line: number;
  column: number;
}

describe("stepgate --check", () => {
  it("prints each of the four mistakes as file:line:column: warning: path: message, and passes without --strict", async () => {
    const run = await stepgate("--check", ...files);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("4 stepfiles checked: 0 errors, 4 warnings");
    FOUR_MISTAKES.forEach((m, i) => {
      const line = lines.find((l) => l.startsWith(`${files[i]}:`));
      const found = new RegExp(`^${escape(files[i]!)}:(\\d+):(\\d+): warning: (\\S+): (.*)$`).exec(line ?? "");
      expect(found, `${m.name}: ${run.stdout}`).not.toBeNull();
      const [, l, c, path, message] = found!;
      expect(path).toBe(m.path);
      expect(pointedAt(m.text, { line: Number(l), column: Number(c) }), m.name).toMatch(m.at);
      expect(message).toMatch(m.says);
    });
  }, 60_000);

  it("fails with --strict on a warning, and not on a clean file", async () => {
    expect((await stepgate("--check", "--strict", files[2]!)).code).toBe(1);
    const clean = await stepgate("--check", "--strict", LEND_BOOKS_FILE);
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toBe("1 stepfile checked: 0 errors, 0 warnings\n");
  }, 60_000);

  it("fails on an invalid file, printing every error with its place", async () => {
    const run = await stepgate("--check", invalid, LEND_BOOKS_FILE);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${invalid}:2:5: error: id: must match ^[a-z][a-z0-9-]*$`);
    expect(run.stdout).toMatch(new RegExp(`${escape(invalid)}:4:8: error: steps: `));
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/^2 stepfiles checked: 2 errors, 0 warnings$/);
  }, 60_000);

  it("exits 2 for a file that cannot be read, after checking the others", async () => {
    const run = await stepgate("--check", join(dir, "missing.stepfile.yaml"), files[0]!);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${join(dir, "missing.stepfile.yaml")}: error: `);
    expect(run.stdout).toContain(`${files[0]}:`);
  }, 60_000);

  it("refuses --strict without --check, and --check without a file", async () => {
    expect(await stepgate("--strict", LEND_BOOKS_FILE)).toMatchObject({ code: 2, stderr: expect.stringContaining("--strict is only for --check") });
    expect(await stepgate("--check")).toMatchObject({ code: 2, stderr: expect.stringContaining("--check needs at least one stepfile") });
  }, 60_000);
});

describe("--check --json and stepgate_validate give the same findings", () => {
  let server: SpawnedStepgate;
  beforeAll(async () => {
    server = await spawnStepgate([]);
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  it("for each of the four mistakes", async () => {
    const run = await stepgate("--check", "--json", ...files);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; errors: number; warnings: number; files: Array<{ file: string; valid: boolean; warnings: Finding[] }> };
    expect(report).toMatchObject({ ok: true, errors: 0, warnings: 4 });
    for (const [i, m] of FOUR_MISTAKES.entries()) {
      const answer = (await server.client.callTool({ name: "stepgate_validate", arguments: { text: m.text } })) as { content: Array<{ text: string }>; structuredContent: { valid: boolean; warnings?: Finding[] } };
      const validated = answer.structuredContent.warnings ?? [];
      expect(validated, m.name).toEqual(report.files[i]!.warnings);
      expect(validated).toHaveLength(1);
      const [w] = validated;
      expect(w!.path).toBe(m.path);
      expect(pointedAt(m.text, w!)).toMatch(m.at);
      expect(w!.message).toMatch(m.says);
      expect(answer.content[0]!.text).toContain(`- line ${w!.line}:${w!.column} ${m.path}: `);
    }
    const clean = (await server.client.callTool({ name: "stepgate_validate", arguments: { text: LEND_BOOKS } })) as { structuredContent: { valid: boolean; warnings?: Finding[] } };
    expect(clean.structuredContent).toMatchObject({ valid: true });
    expect(clean.structuredContent.warnings).toBeUndefined();
  }, 60_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
