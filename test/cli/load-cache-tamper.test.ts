// A load cache entry edited by another process of the user (an agent with a
// shell, say) never changes what runs (issue 29), through the built CLI
// against real HTTP servers on 127.0.0.1. Each tamper the issue found (the
// compiled stepfile with a gate dropped, its credential sent to another
// host, an extra host declared for the credential so a redirect carries it
// there, an id holding `../`), written as a whole entry with its checksum
// recomputed, and an identity that is not the text's: the run still behaves as the stepfile's text says, the key goes
// only to the text's host, the ledger lands in --ledger-dir with the text's
// identity, and the entry is loaded in full again and rewritten.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import canonicalize from "canonicalize";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.js";
import { cleanUp, json, serve, startRun, structured, type TestServer } from "../tools/cli-run.js";

afterEach(cleanUp);
const work = mkdtempSync(join(tmpdir(), "stepgate-cache-tamper-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KEY = "key-3a9f1c77";
/** The build the CLI under test was made by (the catalog index names it too). */
const build = (JSON.parse(readFileSync(join(REPO_ROOT, "dist", "catalog-index.json"), "utf8")) as { build: string }).build;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The text's credential covers `api` only; `other` is declared (its own tool), so `api`'s redirect to it is followed without the key. */
function stepfileFor(api: TestServer, other: TestServer) {
  return {
    stepgate: "1",
    id: "tamper",
    inputs: { type: "object", properties: {} },
    credentials: { keys: { kind: "api_key", hosts: [api.host], description: "An API key." } },
    tools: {
      keyed: {
        openapi: {
          server: api.origin,
          document: {
            openapi: "3.1.0",
            info: { title: "Echo", version: "1" },
            paths: { "/echo": { get: { operationId: "echo", security: [{ inHeader: [] }] } } },
            components: { securitySchemes: { inHeader: { type: "apiKey", in: "header", name: "X-Api-Key" } } },
          },
        },
        exposes: ["echo"],
        credential: "keys",
      },
      elsewhere: {
        openapi: { server: other.origin, document: { openapi: "3.1.0", info: { title: "Landing", version: "1" }, paths: { "/landing": { get: { operationId: "landing" } } } } },
        exposes: ["landing"],
      },
    },
    steps: [
      {
        id: "work",
        instructions: "Call echo, then submit { done: true }.",
        tools: ["echo"],
        retries: 1,
        produces: { type: "object" },
        gates: [{ id: "done", schema: { type: "object", required: ["done"] } }],
      },
    ],
  };
}

/** The one entry a launch serving one stepfile wrote (found by listing, so the test holds for any entry format). */
function onlyEntry(cacheHome: string): string {
  const dir = join(cacheHome, "stepgate", "loads", build);
  const names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  expect(names).toHaveLength(1);
  return join(dir, names[0]!);
}

/**
 * Rewrites an entry as the cache would (its header's format and key, the
 * body's checksum recomputed), with the honest body's fields changed by
 * `change`, whatever the entry format of the build under test holds.
 */
function forge(file: string, change: (body: Record<string, unknown>) => Record<string, unknown>): void {
  const honest = readFileSync(file, "utf8");
  const newline = honest.indexOf("\n");
  const header = JSON.parse(honest.slice(0, newline)) as Record<string, unknown>;
  const body = JSON.stringify(change(JSON.parse(honest.slice(newline + 1)) as Record<string, unknown>));
  writeFileSync(file, `${JSON.stringify({ ...header, sha256: sha256(body) })}\n${body}`, { mode: 0o600 });
}

type Stepfile = ReturnType<typeof stepfileFor>;
const tampers: Array<[string, (doc: Stepfile, other: TestServer) => void]> = [
  ["drops the gate", (doc) => void (doc.steps[0]!.gates = [])],
  ["sends the credential to another host", (doc, other) => {
    doc.tools.keyed.openapi.server = other.origin;
    doc.credentials.keys.hosts = [other.host];
  }],
  ["declares an extra host for the credential", (doc, other) => void doc.credentials.keys.hosts.push(other.host)],
  ["gives the id a `../`", (doc) => void (doc.id = "../../escaped")],
];

describe("a tampered load cache entry", () => {
  it.each(tampers)("that %s changes nothing that runs", async (_name, tamper) => {
    const other = await serve((req, _body, res) => json(res, 200, { key: req.headers["x-api-key"] ?? null }));
    const api = await serve((_req, _body, res) => res.writeHead(302, { location: `${other.origin}/landing` }).end());
    const stepfile = stepfileFor(api, other);
    const identity = `sha256:${sha256(canonicalize(stepfile)!)}`;
    const cacheHome = join(work, `cache-${Math.random().toString(36).slice(2)}`);
    mkdirSync(cacheHome);
    const env = { XDG_CACHE_HOME: cacheHome, KEYS_API_KEY: KEY };

    // A first launch fills the cache with the text's entry.
    await (await startRun(stepfile, {}, { env })).finish();
    const file = onlyEntry(cacheHome);
    // The tampered document, in the body beside the honest findings (the shape an entry once had), checksum recomputed.
    const edited = structuredClone(stepfile);
    tamper(edited, other);
    forge(file, (body) => ({ ...body, doc: edited }));

    const run = await startRun(stepfile, {}, { env });
    await run.call("echo");
    // The gate the text declares still holds: `{}` fails it, `{ done: true }` passes.
    expect(structured(await run.submit({})).state).not.toBe("finished");
    expect(structured(await run.submit({ done: true })).state).toBe("finished");
    const { ledger, stderr } = await run.finish();
    expect(stderr).not.toContain(KEY);

    // The key went to the text's host only; the redirect reached the other host without it.
    expect(api.received.map((r) => r.headers["x-api-key"])).toEqual([KEY]);
    expect(other.received.map((r) => [r.path, r.headers["x-api-key"]])).toEqual([["/landing", undefined]]);
    // The ledger is under --ledger-dir, named and identified by the text.
    expect(ledger.find((r) => r.type === "run_started")?.identity).toBe(identity);
    expect(ledger.at(-1)?.type).toBe("run_finished");
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith("escaped-"))).toEqual([]);
  });

  it("whose identity is not the text's is loaded in full and rewritten", async () => {
    const other = await serve((_req, _body, res) => json(res, 200, {}));
    const api = await serve((_req, _body, res) => json(res, 200, {}));
    const stepfile = stepfileFor(api, other);
    const cacheHome = join(work, "cache-identity");
    mkdirSync(cacheHome);
    const env = { XDG_CACHE_HOME: cacheHome, KEYS_API_KEY: KEY };
    await (await startRun(stepfile, {}, { env })).finish();
    const file = onlyEntry(cacheHome);
    const honest = readFileSync(file, "utf8");
    const forged = `sha256:${"0".repeat(64)}`;
    forge(file, (body) => ({ ...body, identity: forged, warnings: [{ path: "", message: "forged warning" }] }));

    const run = await startRun(stepfile, {}, { env });
    expect(structured(await run.submit({ done: true })).state).toBe("finished");
    const { ledger, stderr } = await run.finish();
    expect(ledger.find((r) => r.type === "run_started")?.identity).toBe(`sha256:${sha256(canonicalize(stepfile)!)}`);
    expect(stderr).not.toContain("forged warning");
    // The full load kept what it found again.
    expect(readFileSync(file, "utf8")).toBe(honest);
  });
});
