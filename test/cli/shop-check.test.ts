// Issue 27's scenario through the built CLI and the MCP tool: the shop
// stepfile (test/fixtures/shop/) gets no finding, and each of the four
// mistakes the checks used to miss, and of the six they caught already, is
// reported alone by `stepgate --check` and by stepgate_validate (an SDK client
// over stdio) with line:column, its rule id and what to write instead, with
// the shop's OpenAPI document inline and pinned by url + sha256 (served on
// 127.0.0.1).
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { stepgate } from "../offline/cli.js";
import { pointedAt } from "../support/lend-books.js";
import { FOUR_MISSED, SHOP, SHOP_FILE, SIX_CAUGHT } from "../support/shop.js";
import { validated, type Finding } from "../support/check-findings.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const MISTAKES = [...FOUR_MISSED, ...SIX_CAUGHT];
const dir = mkdtempSync(join(tmpdir(), "stepgate-shop-"));
const files = MISTAKES.map((m, i) => {
  const file = join(dir, `mistake-${i}.stepfile.yaml`);
  writeFileSync(file, m.text);
  return file;
});

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
        const answer = await validated(server, m.text);
        const found = answer.warnings ?? [];
        expect(found, m.name).toEqual(report.files[i]!.warnings);
        expect(found, m.name).toHaveLength(1);
        const [w] = found;
        expect({ path: w!.path, rule: w!.rule }, m.name).toEqual({ path: m.path, rule: m.rule });
        expect(pointedAt(m.text, w!), m.name).toMatch(m.at);
        expect(w!.message, m.name).toMatch(m.says);
        expect(answer.text).toContain(`- line ${w!.line}:${w!.column} ${m.path}: `);
      }
      const clean = await validated(server, SHOP);
      expect(clean.valid).toBe(true);
      expect(clean.warnings).toBeUndefined();
    }, 120_000);
  });
});

describe("the same, with the shop's document pinned by url and sha256", () => {
  const document = (parse(SHOP) as { tools: { shop: { openapi: { document: unknown } } } }).tools.shop.openapi.document;
  const bytes = Buffer.from(JSON.stringify(document));
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  let api: Server;
  let base: string;
  let server: SpawnedStepgate;
  const pinned = (text: string) => `${text.slice(0, text.indexOf("      document:\n"))}      url: ${base}/shop.json\n      sha256: "${digest}"\n${text.slice(text.indexOf("    exposes: [getOrder, createRefund]"))}`;

  beforeAll(async () => {
    api = createServer((req, res) => (req.url === "/shop.json" ? res.writeHead(200, { "content-type": "application/json" }).end(bytes) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    server = await spawnStepgate(["--draft-host", new URL(base).host]);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => api.close(resolve));
  });

  it("--check and stepgate_validate fetch it and report each mistake as inline: rule, path, message, and where it points", async () => {
    const pinnedFiles = MISTAKES.map((m, i) => {
      const file = join(dir, `pinned-${i}.stepfile.yaml`);
      writeFileSync(file, pinned(m.text));
      return file;
    });
    const clean = join(dir, "pinned-clean.stepfile.yaml");
    writeFileSync(clean, pinned(SHOP));
    const report = JSON.parse((await stepgate("--check", "--json", clean, ...pinnedFiles)).stdout) as { warnings: number; files: Array<{ file: string; warnings: Finding[] }> };
    const inline = JSON.parse((await stepgate("--check", "--json", ...files)).stdout) as { files: Array<{ warnings: Finding[] }> };
    expect(report.warnings).toBe(MISTAKES.length);
    expect(report.files.find((f) => f.file === clean)!.warnings).toEqual([]);
    for (const [i, m] of MISTAKES.entries()) {
      const found = report.files.find((f) => f.file === pinnedFiles[i])!.warnings;
      expect(found, m.name).toHaveLength(1);
      const { rule, path, message } = inline.files[i]!.warnings[0]!;
      expect({ rule: found[0]!.rule, path: found[0]!.path, message: found[0]!.message }, m.name).toEqual({ rule, path, message });
      expect(pointedAt(pinned(m.text), found[0]!), m.name).toMatch(m.at);
      expect((await validated(server, pinned(m.text))).warnings, m.name).toEqual(found);
    }
  }, 120_000);
});
