// The HTTP guards against the REAL `stepgate --http` (the built CLI with the
// real MCP factory and release-notes), not the test factory: every probe is a
// tools/call that WOULD start a release-notes run if it reached MCP handling,
// sent both inside a live 2025 session and as a sessionless 2026-07-28
// request. A started run always writes its first ledger record, so an empty
// --ledger-dir after all probes proves none got past the guards; a control
// request with honest headers then shows the same body does start a run.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliServer, type CliServer } from "../http/fixtures/cli-server.js";
import { INITIALIZE, MCP_HEADERS, messagesOf, rawRequest, type RawResponse } from "../http/fixtures/harness.js";

const FOUR_MIB = 4 * 1024 * 1024;
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "probe", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

let server: CliServer;
let ledgerDir: string;
let session: string;

beforeAll(async () => {
  ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-guards-cli-"));
  server = await startCliServer(["--ledger-dir", ledgerDir, "release-notes"]);
  const opened = await rawRequest({ port: server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  session = String(opened.headers["mcp-session-id"]);
  const initialized = await rawRequest({
    port: server.port,
    headers: sessionHeaders(),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  expect(initialized.status).toBe(202);
});

afterAll(async () => {
  await server.stop();
  rmSync(ledgerDir, { recursive: true, force: true });
});

function sessionHeaders(): Record<string, string> {
  return { ...MCP_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
}

const MODERN_HEADERS = { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "release-notes" };

/** A tools/call starting release-notes, padded (in one change's text) to exactly `size` bytes when given. */
function startRun(era: "legacy" | "modern", size?: number): string {
  const params = { name: "release-notes", arguments: { version: "1.0.0", changes: ["Add a probe", ""] }, ...(era === "modern" ? { _meta: META } : {}) };
  const shell = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params });
  const pad = size === undefined ? 1 : size - shell.length;
  return shell.replace('""', JSON.stringify("x".repeat(pad)));
}

const ledgerFiles = () => readdirSync(ledgerDir);

function expectRefused(response: RawResponse, status: number): void {
  expect(response.status).toBe(status);
  // Every refusal is JSON-RPC shaped: the guards answered, not the MCP SDK.
  expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
}

// [label, headers to override] for each era's request; PORT is the bound port.
const HEADER_PROBES: [string, Record<string, string>][] = [
  ["Host evil.example", { host: "evil.example" }],
  ["Host evil.example:PORT", { host: "evil.example:PORT" }],
  ["Host 127.0.0.1.evil.example:PORT", { host: "127.0.0.1.evil.example:PORT" }],
  ["Host localhost.evil.example:PORT", { host: "localhost.evil.example:PORT" }],
  ["Host localhost on another port", { host: "localhost:1" }],
  ["Host [::2]:PORT (IPv6, not loopback)", { host: "[::2]:PORT" }],
  ["Origin http://evil.example", { origin: "http://evil.example" }],
  ["Origin http://127.0.0.1.evil.example", { origin: "http://127.0.0.1.evil.example" }],
  ["Origin http://[::1].evil.example (IPv6 form)", { origin: "http://[::1].evil.example" }],
  ["Origin http://[::2]:PORT (IPv6, not loopback)", { origin: "http://[::2]:PORT" }],
  ["Origin http://localhost@evil.example", { origin: "http://localhost@evil.example" }],
  ["Origin null", { origin: "null" }],
];

const withPort = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("PORT", String(server.port))]));

describe("stepgate --http refuses before MCP handling", () => {
  it.each(HEADER_PROBES)("%s: 403 in a 2025 session and over 2026-07-28", async (_label, probe) => {
    const legacy = await rawRequest({ port: server.port, headers: { ...sessionHeaders(), ...withPort(probe) }, body: startRun("legacy") });
    const modern = await rawRequest({ port: server.port, headers: { ...MODERN_HEADERS, ...withPort(probe) }, body: startRun("modern") });
    expectRefused(legacy, 403);
    expectRefused(modern, 403);
    expect(ledgerFiles()).toEqual([]);
  });

  // Host values the server adaptor cannot turn into a request URL never reach
  // the guards; they are refused the same way, with a JSON-RPC shaped 403.
  it.each([["[::1].evil.example:PORT"], ["[::ffff:127.0.0.1]:PORT"]])("Host %s: 403", async (host) => {
    const response = await rawRequest({ port: server.port, headers: { ...sessionHeaders(), ...withPort({ host }) }, body: startRun("legacy") });
    expectRefused(response, 403);
    expect(ledgerFiles()).toEqual([]);
  });

  // The server reads and discards the rest of an oversized upload before it
  // answers, so even a slow client finishes writing and reads the 413.
  it.each([["legacy" as const], ["modern" as const]])("4 MiB + 1 byte (%s era): 413 as JSON, as text/plain and chunked", async (era) => {
    const headers = era === "legacy" ? sessionHeaders() : MODERN_HEADERS;
    const body = startRun(era, FOUR_MIB + 1);
    expect(Buffer.byteLength(body)).toBe(FOUR_MIB + 1);
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(Buffer.from(body.slice(at, at + 64 * 1024)));
    const text = { ...headers, "content-type": "text/plain" };
    const logged = () => server.stderr().split("\n").filter((line) => line === "stepgate: 413 POST /mcp").length;
    const before = logged();
    for (const probe of [{ headers, body }, { headers: text, body }, { headers, body: chunks }, { headers: text, body: chunks }]) {
      expectRefused(await rawRequest({ port: server.port, ...probe }), 413);
    }
    await expect.poll(logged).toBe(before + 4);
    expect(ledgerFiles()).toEqual([]);
  });

  it.each([["legacy" as const], ["modern" as const]])("non-JSON bodies (%s era): 400", async (era) => {
    const headers = era === "legacy" ? sessionHeaders() : MODERN_HEADERS;
    const run = startRun(era);
    const probes = [
      { headers: { ...headers, "content-type": "text/plain" }, body: run },
      { headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: `q=${encodeURIComponent(run)}` },
      { headers: { accept: headers.accept }, body: run },
      { headers, body: run.slice(0, -1) },
      { headers, body: "" },
    ];
    for (const probe of probes) expectRefused(await rawRequest({ port: server.port, ...probe }), 400);
    expect(ledgerFiles()).toEqual([]);
  });

  it("logs each refusal on stderr with its status", () => {
    expect(server.stderr()).toMatch(/stepgate: 403 POST \/mcp/);
    expect(server.stderr()).toMatch(/stepgate: 413 POST \/mcp/);
    expect(server.stderr()).toMatch(/stepgate: 400 POST \/mcp/);
  });

  // Last: the control. The same bodies with honest headers reach MCP
  // handling and start runs, so the empty ledger dir above means refusal.
  it("the same tools/call with honest headers starts a run in each era", async () => {
    const legacy = await rawRequest({ port: server.port, headers: sessionHeaders(), body: startRun("legacy") });
    const modern = await rawRequest({ port: server.port, headers: MODERN_HEADERS, body: startRun("modern") });
    for (const response of [legacy, modern]) {
      expect(response.status).toBe(200);
      expect(messagesOf(response.body)[0]).toMatchObject({ id: 7, result: { structuredContent: { state: "running" } } });
    }
    expect(ledgerFiles()).toHaveLength(2);
  });
});
