// Fetches made while loading or checking (docs/arazzo.md "Remote sources",
// docs/checks.md "Pinned documents"): an Arazzo source description when
// serving or converting, a pinned OpenAPI document under `--check` and
// stepgate_validate. Each has min(--request-timeout-ms, 15 s) in all, the
// seed's retries included (src/limits.ts loadFetchMs), and fails naming the
// URL, what happened and what to do. Scripted servers on 127.0.0.1 that
// (a) never answer, (b) answer 500 every time, (c) answer 503 asking for a
// wait longer than the bound, (d) close the connection; with
// --request-timeout-ms 2000 the bound is 2 s, so the old behaviour (five
// attempts, each with the whole request timeout, and every wait a server
// asks for up to 60 s) shows as more requests than the bound leaves room for.
import { execFile } from "node:child_process";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { namedHostEnv, serveHttps, type HttpsFixture } from "../support/https-fixture.js";
import { LEND_BOOKS } from "../support/lend-books.js";
import { listenLoopback, type Listening } from "../support/listen.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { cliEnvironment, spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const run = promisify(execFile);
const TIMEOUT = ["--request-timeout-ms", "2000"];
const dir = mkdtempSync(join(tmpdir(), "stepgate-load-fetch-"));

/** The four ways a document server fails, by path; `/slow-503` asks for a wait within the seed's 60 s but past the 2 s bound. */
const FAILURES = {
  hang: { path: "/hang", says: /no complete response within 2000 ms; not enough time is left of the 2 s this fetch may take in all to try again/ },
  "500": { path: "/500", says: /HTTP 500/ },
  "503 Retry-After: 120": { path: "/503", says: /HTTP 503, the API asked to wait 120 s, more than the 2 s this fetch may take in all/ },
  "503 Retry-After: 5": { path: "/slow-503", says: /HTTP 503, the API asked to wait 5 s, more than the 2 s this fetch may take in all/ },
  "closed connection": { path: "/close", says: /network error: .*; not enough time is left of the 2 s this fetch may take in all to try again/ },
} as const;

const received: string[] = [];
function failing(req: IncomingMessage, res: ServerResponse): void {
  received.push(req.url ?? "/");
  if (req.url === "/hang") return; // Never answers; close() ends the socket.
  if (req.url === "/500") res.writeHead(500, { "content-type": "text/plain" }).end("boom");
  else if (req.url === "/503") res.writeHead(503, { "retry-after": "120" }).end();
  else if (req.url === "/slow-503") res.writeHead(503, { "retry-after": "5" }).end();
  else if (req.url === "/close") req.socket.destroy();
  else res.writeHead(404).end();
}

let https: HttpsFixture;
let http: Listening;
const HOST = "api.example.test";
const namedEnv = () => ({ ...cliEnvironment(), ...namedHostEnv({ [HOST]: ["127.0.0.1"] }) });

beforeAll(async () => {
  https = await serveHttps(failing);
  http = await listenLoopback(createHttpServer(failing));
});
afterAll(async () => {
  await https?.close();
  await http?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The worked Arazzo example with its one source description at `url`. */
function arazzoAt(name: string, url: string): string {
  const file = join(dir, `${name}.arazzo.yaml`);
  writeFileSync(file, readFileSync(resolve(REPO_ROOT, "docs/arazzo/order-status.arazzo.yaml"), "utf8").replace("url: ./store.openapi.json", `url: ${url}`));
  return file;
}

/** LEND_BOOKS with its inline document replaced by a pin to `url`. */
function pinnedAt(name: string, url: string): string {
  const text = `${LEND_BOOKS.slice(0, LEND_BOOKS.indexOf("      document:\n"))}      url: ${url}\n      sha256: "sha256:${"0".repeat(64)}"\n${LEND_BOOKS.slice(LEND_BOOKS.indexOf("    exposes: [listBooks, createLoan]"))}`;
  const file = join(dir, `${name}.stepfile.yaml`);
  writeFileSync(file, text);
  return file;
}

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [stepgateBin(), ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const requestsTo = (path: string) => received.filter((p) => p === path).length;

describe.each(Object.entries(FAILURES))("a document server that fails: %s", (name, { path, says }) => {
  const slug = name.replace(/\W+/g, "-");

  it(
    "--from-arazzo ends within the bound and names the source, its URL, what happened and --source",
    async () => {
      const url = `https://${HOST}:${https.port}${path}`;
      received.length = 0;
      const result = await cli(["--from-arazzo", arazzoAt(`convert-${slug}`, url), "--out", join(dir, `out-${slug}`), "--allow-private-host", HOST, ...TIMEOUT], namedEnv());
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`refused: workflow orderStatus, step readOrder: operationId getOrder: source store could not be fetched from ${url}: `);
      expect(result.stderr).toMatch(says);
      expect(result.stderr).toContain("--source store=<file>");
      // Five attempts (the seed's four retries) do not fit in 2 s with waits of 0.5, 1, 2 and 4 s between them.
      expect(requestsTo(path)).toBeGreaterThanOrEqual(1);
      expect(requestsTo(path)).toBeLessThanOrEqual(3);
    },
    budget({ starts: 1 }),
  );

  it(
    "serving an Arazzo document stops within the bound with StepfileInvalid naming the source and --source",
    async () => {
      const url = `https://${HOST}:${https.port}${path}`;
      received.length = 0;
      const file = arazzoAt(`serve-${slug}`, url);
      const result = await cli([file, "--allow-private-host", HOST, ...TIMEOUT], namedEnv());
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`source store could not be fetched from ${url}: `);
      expect(result.stderr).toMatch(says);
      expect(result.stderr).toContain("StepfileInvalid");
      expect(result.stderr).toContain("--source store=<file>");
      expect(requestsTo(path)).toBeLessThanOrEqual(3);
    },
    budget({ starts: 1 }),
  );

  it(
    "--check ends within the bound; the finding names the tool, the URL, what happened and --offline",
    async () => {
      const url = `${http.origin}${path}`;
      received.length = 0;
      const result = await cli(["--check", pinnedAt(`check-${slug}`, url), ...TIMEOUT], cliEnvironment());
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const line = result.stdout.split("\n").find((l) => l.includes("[pinned-document-unchecked]")) ?? "";
      expect(line, result.stdout).toContain(`tool library's OpenAPI document (pinned by url and sha256) could not be fetched: GET ${url}: `);
      expect(line).toMatch(says);
      expect(line).toContain("--offline");
      expect(requestsTo(path)).toBeGreaterThanOrEqual(1);
      expect(requestsTo(path)).toBeLessThanOrEqual(3);
    },
    budget({ starts: 1 }),
  );
});

describe("stepgate_validate of a draft pinning a document on a failing server", () => {
  let server: SpawnedStepgate;
  beforeAll(async () => {
    server = await spawnStepgate(["--draft-host", http.host, ...TIMEOUT]);
  }, budget({ starts: 1 }));
  afterAll(async () => {
    await server?.close();
  });

  it.each(Object.entries(FAILURES))(
    "%s: answers within the bound, the finding naming the tool, the URL and what happened",
    async (name, { path, says }) => {
      const url = `${http.origin}${path}`;
      received.length = 0;
      const text = readFileSync(pinnedAt(`validate-${name.replace(/\W+/g, "-")}`, url), "utf8");
      const answer = (await server.client.callTool({ name: "stepgate_validate", arguments: { text } })) as { structuredContent: { warnings?: Array<{ rule: string; message: string }> } };
      const [finding] = (answer.structuredContent.warnings ?? []).filter((w) => w.rule === "pinned-document-unchecked");
      expect(finding?.message).toContain(`tool library's OpenAPI document (pinned by url and sha256) could not be fetched: GET ${url}: `);
      expect(finding?.message).toMatch(says);
      expect(requestsTo(path)).toBeLessThanOrEqual(3);
    },
    budget({ replies: 1 }),
  );
});

it(
  "--check of an Arazzo document fetches none of its remote sources",
  async () => {
    received.length = 0;
    const result = await cli(["--check", arazzoAt("check-arazzo", `https://${HOST}:${https.port}/hang`), "--allow-private-host", HOST, ...TIMEOUT], namedEnv());
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toContain("--source store=<file>");
    expect(received).toEqual([]);
  },
  budget({ starts: 1 }),
);
