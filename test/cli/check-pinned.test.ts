// A tool whose OpenAPI document is pinned by url + sha256 (issue 27, item 3):
// `stepgate --check` (the built CLI) and stepgate_validate (an MCP client
// over stdio) fetch the document from a server on 127.0.0.1 as preflight
// would and report what they report with it inline; when it is not fetched
// (--offline, nothing listening, a changed document, a host drafts may not
// reach) a finding names the tool and the checks that did not run.
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { stepgate } from "../offline/cli.js";
import { FOUR_MISTAKES, LEND_BOOKS, pointedAt } from "../support/lend-books.js";
import { validateClients } from "../support/validate-clients.js";

interface Finding {
  path: string;
  message: string;
  line: number;
  column: number;
  rule: string;
}
interface Report {
  ok: boolean;
  errors: number;
  warnings: number;
  files: Array<{ file: string; valid: boolean; warnings: Finding[] }>;
}

// The fixture's inline document, cut out of the text and served as JSON bytes.
const start = LEND_BOOKS.indexOf("      document:\n");
const end = LEND_BOOKS.indexOf("    exposes: [listBooks, createLoan]");
const document = (parse(LEND_BOOKS) as { tools: { library: { openapi: { document: unknown } } } }).tools.library.openapi.document;
const bytes = Buffer.from(JSON.stringify(document));
const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const requests: string[] = [];
let server: Server;
let base: string;
const dir = mkdtempSync(join(tmpdir(), "stepgate-pinned-"));

/** `text` with its inline document replaced by a pin to `path` on the test server. */
function pinned(text: string, path = "/library.json", sha256 = digest): string {
  return `${text.slice(0, text.indexOf("      document:\n"))}      url: ${base}${path}\n      sha256: "${sha256}"\n${text.slice(text.indexOf("    exposes: [listBooks, createLoan]"))}`;
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? "no credential"}`);
    if (req.url === "/library.json") res.writeHead(200, { "content-type": "application/json" }).end(bytes);
    else if (req.url === "/changed.json") res.writeHead(200, { "content-type": "application/json" }).end(Buffer.from(JSON.stringify({ ...(document as object), info: { title: "Changed", version: "2" } })));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("stepgate --check with a pinned document", () => {
  it("reports each mistake as it does inline, at its line:column with its rule id, and nothing for the correct file", async () => {
    const files = FOUR_MISTAKES.map((m, i) => write(`pinned-${i}.stepfile.yaml`, pinned(m.text)));
    const clean = write("pinned-clean.stepfile.yaml", pinned(LEND_BOOKS));
    requests.length = 0;
    const run = await stepgate("--check", "--json", clean, ...files);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ ok: true, errors: 0, warnings: 4 });
    const inline = JSON.parse((await stepgate("--check", "--json", ...FOUR_MISTAKES.map((m, i) => write(`inline-${i}.stepfile.yaml`, m.text)))).stdout) as Report;
    for (const [i, m] of FOUR_MISTAKES.entries()) {
      const found = report.files.find((f) => f.file === files[i])!.warnings;
      expect(found, m.name).toHaveLength(1);
      const [w] = found;
      expect(w!.path).toBe(m.path);
      expect(w!.message).toMatch(m.says);
      expect(pointedAt(pinned(m.text), w!), m.name).toMatch(m.at);
      // The same finding as with the document inline: rule, path and message.
      const { rule, path, message } = inline.files[i]!.warnings[0]!;
      expect({ rule: w!.rule, path: w!.path, message: w!.message }).toEqual({ rule, path, message });
    }
    expect(report.files.find((f) => f.file === clean)!.warnings).toEqual([]);
    // Fetched as preflight fetches it: a GET of the pinned url, without a credential.
    expect(requests.length).toBeGreaterThanOrEqual(5);
    expect(new Set(requests)).toEqual(new Set(["GET /library.json no credential"]));
  }, 60_000);

  it("with --offline, fetches nothing and says which checks did not run; --strict fails on it", async () => {
    const file = write("offline.stepfile.yaml", pinned(FOUR_MISTAKES[0]!.text));
    requests.length = 0;
    const run = await stepgate("--check", "--offline", file);
    expect(run.code, run.stdout).toBe(0);
    expect(requests).toEqual([]);
    const line = run.stdout.split("\n").find((l) => l.includes("[pinned-document-unchecked]"));
    expect(line, run.stdout).toBeDefined();
    expect(line).toMatch(/: warning: tools\.library\.openapi\.url: tool library's OpenAPI document \(pinned by url and sha256\) was not fetched \(--offline skips fetching\), so these checks did not run against its operations: undeclared-path, call-arguments, agent-write; /);
    const [, l, c] = /:(\d+):(\d+): warning/.exec(line!)!;
    expect(pointedAt(pinned(FOUR_MISTAKES[0]!.text), { line: Number(l), column: Number(c) })).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/library\.json/);
    expect(run.stdout).not.toContain("[undeclared-path]");
    expect((await stepgate("--check", "--offline", "--strict", file)).code).toBe(1);
  }, 60_000);

  it("says why when the document cannot be fetched or its digest differs", async () => {
    const missing = write("missing.stepfile.yaml", pinned(LEND_BOOKS, "/gone.json"));
    const changed = write("changed.stepfile.yaml", pinned(LEND_BOOKS, "/changed.json"));
    const run = await stepgate("--check", "--json", missing, changed);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    const [gone] = report.files.find((f) => f.file === missing)!.warnings;
    expect(gone).toMatchObject({ rule: "pinned-document-unchecked", path: "tools.library.openapi.url", message: expect.stringMatching(/could not be fetched: .*HTTP 404.*undeclared-path, call-arguments, agent-write/) as unknown as string });
    const [differs] = report.files.find((f) => f.file === changed)!.warnings;
    expect(differs!.message, differs!.message).toMatch(new RegExp(`could not be fetched: .*the document at ${base}/changed\\.json has digest sha256:[0-9a-f]{64}, but the stepfile pins ${digest}`));
    expect((await stepgate("--check", "--strict", missing)).code).toBe(1);
  }, 60_000);
});

describe("stepgate_validate with a pinned document", () => {
  const clients = validateClients<Finding>(() => new URL(base).host);

  it("gives what --check gives, from a host granted with --draft-host", async () => {
    const files = FOUR_MISTAKES.map((m, i) => write(`validate-${i}.stepfile.yaml`, pinned(m.text)));
    const report = JSON.parse((await stepgate("--check", "--json", ...files)).stdout) as Report;
    for (const [i, m] of FOUR_MISTAKES.entries()) {
      const answer = await clients.granted(pinned(m.text));
      expect(answer.structuredContent.warnings, m.name).toEqual(report.files.find((f) => f.file === files[i])!.warnings);
      expect(answer.content[0]!.text).toContain(`[${answer.structuredContent.warnings![0]!.rule}]`);
    }
    expect((await clients.granted(pinned(LEND_BOOKS))).structuredContent.warnings).toBeUndefined();
  }, 60_000);

  it("says the checks did not run when drafts may not reach the host", async () => {
    const answer = await clients.ungranted(pinned(FOUR_MISTAKES[0]!.text));
    expect(answer.structuredContent.warnings).toEqual([
      expect.objectContaining({ rule: "pinned-document-unchecked", path: "tools.library.openapi.url", message: expect.stringMatching(/could not be fetched: .*127\.0\.0\.1 is this machine, which drafts reach \(over http:\/\/ too\) only once the operator grants it with --draft-host 127\.0\.0\.1:\d+.*undeclared-path, call-arguments, agent-write/) }),
    ]);
  }, 60_000);
});
