// Issue 27's scenario through the built CLI and the MCP tool: the shop
// stepfile (test/fixtures/shop/) gets no finding, and each of the four
// mistakes the checks used to miss, and of the six they caught already, is
// reported alone by `stepgate --check` and by stepgate_validate (an SDK client
// over stdio) with line:column, its rule id and what to write instead.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepgate } from "../offline/cli.js";
import { pointedAt } from "../support/lend-books.js";
import { FOUR_MISSED, SHOP, SHOP_FILE, SIX_CAUGHT } from "../support/shop.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const MISTAKES = [...FOUR_MISSED, ...SIX_CAUGHT];
const dir = mkdtempSync(join(tmpdir(), "stepgate-shop-"));
const files = MISTAKES.map((m, i) => {
  const file = join(dir, `mistake-${i}.stepfile.yaml`);
  writeFileSync(file, m.text);
  return file;
});

interface Finding {
  path: string;
  message: string;
  line: number;
  column: number;
  rule: string;
}

describe("the shop stepfile and ten planted mistakes", () => {
  it("--check passes the stepfile with no finding, even with --strict", async () => {
    const clean = await stepgate("--check", "--strict", SHOP_FILE);
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toBe("1 stepfile checked: 0 errors, 0 warnings\n");
  }, 60_000);

  it("--check prints each mistake once, as file:line:column: warning: path: message [rule]", async () => {
    const run = await stepgate("--check", ...files);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe(`${MISTAKES.length} stepfiles checked: 0 errors, ${MISTAKES.length} warnings`);
    MISTAKES.forEach((m, i) => {
      const found = lines.filter((l) => l.startsWith(`${files[i]}:`));
      expect(found, m.name).toHaveLength(1);
      const parsed = /^.*?:(\d+):(\d+): warning: (\S+): (.*) \[([a-z-]+)\]$/.exec(found[0]!);
      expect(parsed, `${m.name}: ${found[0]}`).not.toBeNull();
      const [, line, column, path, message, rule] = parsed!;
      expect({ path, rule }, m.name).toEqual({ path: m.path, rule: m.rule });
      expect(pointedAt(m.text, { line: Number(line), column: Number(column) }), m.name).toMatch(m.at);
      expect(message, m.name).toMatch(m.says);
    });
  }, 60_000);

  describe("--check --json and stepgate_validate", () => {
    let server: SpawnedStepgate;
    beforeAll(async () => {
      server = await spawnStepgate([]);
    }, 60_000);
    afterAll(async () => {
      await server.close();
    });

    it("give the same finding for each mistake, with its rule id, and none for the stepfile", async () => {
      const run = await stepgate("--check", "--json", ...files);
      const report = JSON.parse(run.stdout) as { warnings: number; files: Array<{ warnings: Finding[] }> };
      expect(report.warnings).toBe(MISTAKES.length);
      for (const [i, m] of MISTAKES.entries()) {
        const answer = (await server.client.callTool({ name: "stepgate_validate", arguments: { text: m.text } })) as { content: Array<{ text: string }>; structuredContent: { valid: boolean; warnings?: Finding[] } };
        const validated = answer.structuredContent.warnings ?? [];
        expect(validated, m.name).toEqual(report.files[i]!.warnings);
        expect(validated, m.name).toHaveLength(1);
        const [w] = validated;
        expect({ path: w!.path, rule: w!.rule }, m.name).toEqual({ path: m.path, rule: m.rule });
        expect(pointedAt(m.text, w!), m.name).toMatch(m.at);
        expect(w!.message, m.name).toMatch(m.says);
        expect(answer.content[0]!.text).toContain(`- line ${w!.line}:${w!.column} ${m.path}: `);
      }
      const clean = (await server.client.callTool({ name: "stepgate_validate", arguments: { text: SHOP } })) as { structuredContent: { valid: boolean; warnings?: Finding[] } };
      expect(clean.structuredContent).toMatchObject({ valid: true });
      expect(clean.structuredContent.warnings).toBeUndefined();
    }, 120_000);
  });
});
