// Protocol errors the built CLI answers the same way on stdio and --http, in
// both protocol eras: a tools/call for a tool it does not list is JSON-RPC
// -32602 (not a tool result), and a JSON-RPC batch is refused with -32600
// and `id: null` on every revision from 2025-06-18, while a 2025-03-26
// session still gets its batch answered, as one array.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliServer, type CliServer } from "../http/fixtures/cli-server.js";
import { connectClient, INITIALIZE, MCP_HEADERS, messagesOf, rawRequest } from "../http/fixtures/harness.js";
import { budget } from "../support/budget.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-protocol-errors-"));
const greet = resolve(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml");
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" } };
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const initialize = (protocolVersion: string) => ({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } });
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

let http: CliServer;
const spawned: SpawnedStepgate[] = [];
beforeAll(async () => {
  http = await startCliServer(["--ledger-dir", ledgerDir, greet]);
});
afterAll(async () => {
  await Promise.all(spawned.map((s) => s.close()));
  await http?.stop();
  rmSync(ledgerDir, { recursive: true, force: true });
});

/** The refusal every transport and revision from 2025-06-18 gives a batch. */
const refusedBatch = { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("JSON-RPC batches are not accepted") } };

describe("a tools/call for a tool the server does not list", () => {
  const clients: Record<string, () => Promise<Client>> = {
    "stdio, 2025-11-25": async () => (spawned[spawned.push(await spawnStepgate(["--ledger-dir", ledgerDir, greet])) - 1]!).client,
    "stdio, 2026-07-28": async () => (spawned[spawned.push(await spawnStepgate(["--ledger-dir", ledgerDir, greet], {}, { versionNegotiation: { mode: { pin: "2026-07-28" } } })) - 1]!).client,
    "--http, 2025-11-25": () => connectClient(http.url, "legacy"),
    "--http, 2026-07-28": () => connectClient(http.url, "modern"),
  };
  it.each(Object.keys(clients))("%s: is JSON-RPC error -32602, and the session goes on", async (how) => {
    const client = await clients[how]!();
    const error = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: no_such_tool") });
    const started = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(started.structuredContent).toMatchObject({ state: "running" });
    if (how.startsWith("--http")) await client.close();
  }, budget({ starts: 1, replies: 4 }));
});

/** Writes `lines` to a fresh stdio server, waits until `answers` answers came back (an id other than null at the end), and returns every stdout line. */
function stdioLines(lines: unknown[], answers: number): Promise<unknown[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [stepgateBin(), "--ledger-dir", ledgerDir, greet], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
      const got = out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);
      if (got.filter((m) => Array.isArray(m) || (m as { id?: unknown }).id === 9).length >= answers) child.stdin.end();
    });
    child.on("error", fail);
    child.on("close", () => done(out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown)));
    child.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  });
}

describe("a JSON-RPC batch over stdio", () => {
  it.each(["2025-11-25", "2025-06-18"])("%s: is refused with -32600 and id null; the next message is served", async (version) => {
    const lines = await stdioLines([initialize(version), initialized, [ping(7), ping(8)], ping(9)], 1);
    expect(lines.slice(1)).toEqual([refusedBatch, { jsonrpc: "2.0", id: 9, result: {} }]);
  }, budget({ starts: 1, replies: 3 }));

  it("2026-07-28: is refused the same way", async () => {
    const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } };
    // (2026-07-28 has no ping: the batch holds tools/list requests, and one follows it.)
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: ENVELOPE } });
    const lines = await stdioLines([discover, [list(7), list(8)], list(9)], 1);
    expect(lines).toContainEqual(refusedBatch);
    expect(lines.find((l) => (l as { id?: unknown }).id === 9)).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(lines.filter((l) => [7, 8].includes((l as { id?: number }).id!))).toEqual([]);
  }, budget({ starts: 1, replies: 3 }));

  it("2025-03-26: is served, its answers in one array", async () => {
    const lines = await stdioLines([initialize("2025-03-26"), initialized, [ping(7), initialized, { id: 5, method: "ping" }, ping(8)], ping(9)], 2);
    // (The element without "jsonrpc" gets its own Invalid Request in the array, first: it is answered as read.)
    expect(lines.slice(1)).toContainEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("not a JSON-RPC 2.0 message") } },
      { jsonrpc: "2.0", id: 7, result: {} },
      { jsonrpc: "2.0", id: 8, result: {} },
    ]);
    expect(lines).toHaveLength(3);
  }, budget({ starts: 1, replies: 3 }));
});

describe("a JSON-RPC batch over --http", () => {
  /** Opens a 2025 session with raw requests; returns its id. */
  async function session(version: string): Promise<string> {
    const opened = await rawRequest({ port: http.port, headers: MCP_HEADERS, body: JSON.stringify(initialize(version)) });
    expect(opened.status).toBe(200);
    const id = opened.headers["mcp-session-id"] as string;
    await rawRequest({ port: http.port, headers: { ...MCP_HEADERS, "mcp-session-id": id, "mcp-protocol-version": version }, body: JSON.stringify(initialized) });
    return id;
  }
  const postBatch = (headers: Record<string, string>, batch: unknown[]) => rawRequest({ port: http.port, headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(batch) });

  it.each(["2025-11-25", "2025-06-18"])("%s session: is refused with 400, -32600 and id null", async (version) => {
    const id = await session(version);
    const answer = await postBatch({ "mcp-session-id": id, "mcp-protocol-version": version }, [ping(7), ping(8)]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual(refusedBatch);
    // Refused before the session saw it: the session still serves one message.
    const one = await rawRequest({ port: http.port, headers: { ...MCP_HEADERS, "mcp-session-id": id, "mcp-protocol-version": version }, body: JSON.stringify(ping(9)) });
    expect(messagesOf(one.body)).toEqual([{ jsonrpc: "2.0", id: 9, result: {} }]);
  }, budget({ replies: 4 }));

  it("2026-07-28: is refused with 400 and -32600", async () => {
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: ENVELOPE } });
    const answer = await postBatch({ "mcp-protocol-version": "2026-07-28" }, [list(7), list(8)]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  }, budget({ replies: 1 }));

  it("2025-03-26 session: is served, every request answered", async () => {
    const id = await session("2025-03-26");
    const answer = await postBatch({ "mcp-session-id": id, "mcp-protocol-version": "2025-03-26" }, [ping(7), ping(8)]);
    expect(answer.status).toBe(200);
    const answered = messagesOf(answer.body).flat() as Array<{ id: number }>;
    expect(answered.map((m) => m.id).sort()).toEqual([7, 8]);
  }, budget({ replies: 3 }));
});
