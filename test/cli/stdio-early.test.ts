// The stdio session's first answers written before the MCP SDK loads
// (src/stdio/early.ts), through the built CLI: the same bytes the SDK
// server writes, and a session the SDK server takes over without losing,
// repeating or reordering anything.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { afterAll, describe, expect, it } from "vitest";
import { EARLY_PROTOCOL_VERSIONS } from "../../src/stdio/early.js";
import { budget } from "../support/budget.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";

const ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-early-"));
afterAll(() => rmSync(ledgerDir, { recursive: true, force: true }));
const greet = resolve(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml");

const initialize = (id: number | string, protocolVersion: string, capabilities: object = {}) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities, clientInfo: { name: "early", version: "0" } } });
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const toolsList = (id: number | string) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const line = (message: unknown) => `${typeof message === "string" ? message : JSON.stringify(message)}\n`;

/**
 * Writes `input` at once (no waiting for answers), then keeps stdin open
 * until `answers` answers arrived (or closes it at once with `close`), and
 * returns every stdout line and the exit code.
 */
function session(input: string, answers: number, { close = false, args = [greet] }: { close?: boolean; args?: string[] } = {}): Promise<{ lines: string[]; code: number | null }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [stepgateBin(), "--ledger-dir", ledgerDir, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += String(d);
      // Answers end with their id; notifications do not count.
      if (!close && out.split("\n").filter((l) => /"id":("[^"]*"|-?\d+)}$/.test(l)).length >= answers) child.stdin.end();
    });
    child.stderr.on("data", (d) => (err += String(d)));
    child.on("error", fail);
    child.on("close", (code) => {
      if (code !== 0) fail(new Error(`stepgate exited with ${code}: ${err}`));
      else done({ lines: out.split("\n").filter((l) => l !== ""), code });
    });
    child.stdin.write(input);
    if (close || answers === 0) child.stdin.end();
  });
}

describe("stdio answers before the SDK loads", () => {
  it("negotiates the protocol versions the SDK does", () => {
    expect(EARLY_PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < "2026-07-28"));
  });

  // A ping first is not an early message, so the SDK server answers
  // everything after it: the bytes to compare with.
  const versions = [...EARLY_PROTOCOL_VERSIONS, "2099-01-01"];
  it.concurrent.each(versions)("writes the SDK's initialize and tools/list bytes for protocol version %s", { timeout: budget({ starts: 2, replies: 6 }) }, async (version) => {
    const exchange = line(initialize(1, version, { elicitation: { form: {} }, roots: { listChanged: true } })) + line(initialized) + line(toolsList("two"));
    const [early, sdk] = await Promise.all([session(exchange, 2), session(line(ping(0)) + exchange, 3)]);
    expect(sdk.lines[0]).toBe('{"result":{},"jsonrpc":"2.0","id":0}');
    expect(early.lines).toEqual(sdk.lines.slice(1));
    expect(JSON.parse(early.lines[0]!).result.protocolVersion).toBe(EARLY_PROTOCOL_VERSIONS.includes(version) ? version : "2025-11-25");
  });

  it("answers initialize, tools/list and a tools/call sent back to back, in order, each once", async () => {
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "greet", arguments: { name: "Ada" } } };
    const { lines } = await session(line(initialize(1, "2025-11-25")) + line(initialized) + line(toolsList(2)) + line(call), 3);
    // Notifications (a new run's resources) may come between the answers.
    const replies = lines.map((l) => JSON.parse(l) as { id?: number; result: Record<string, unknown> }).filter((r) => r.id !== undefined);
    expect(replies.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(replies[1]!.result.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: "greet" })]));
    expect(replies[2]!.result.structuredContent).toMatchObject({ state: "running", step: { step: "hello", instructions: "Greet Ada." } });
  });

  it("hands a second tools/list and everything after it to the SDK server unchanged", async () => {
    const { lines } = await session(line(initialize(1, "2025-11-25")) + line(initialized) + line(toolsList(2)) + line(toolsList(3)) + line({ ...toolsList(4), params: { cursor: "x" } }), 4);
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1, 2, 3, 4]);
    // The early answer (id 2) and the SDK server's (ids 3 and 4) differ only in the id.
    expect(lines[2]).toBe(lines[1]!.replace('"id":2}', '"id":3}'));
    expect(lines[3]).toBe(lines[1]!.replace('"id":2}', '"id":4}'));
  });

  it("leaves a malformed first line to the SDK and still serves the session", async () => {
    const exchange = line(initialize(1, "2025-11-25")) + line(initialized) + line(toolsList(2));
    const [malformed, plain] = await Promise.all([session(line("{not json") + exchange, 2), session(exchange, 2)]);
    expect(malformed.lines).toEqual(plain.lines);
  });

  it("leaves an initialize it cannot vouch for (unknown params, _meta, a batch) to the SDK", async () => {
    const odd = { ...initialize(1, "2025-11-25"), params: { ...initialize(1, "2025-11-25").params, _meta: { trace: "t" } } };
    const [withMeta, plain] = await Promise.all([session(line(odd) + line(initialized) + line(toolsList(2)), 2), session(line(initialize(1, "2025-11-25")) + line(initialized) + line(toolsList(2)), 2)]);
    expect(withMeta.lines).toEqual(plain.lines);
    const batch = await session(line([initialize(1, "2025-11-25")]) + line(ping(5)), 1);
    // The SDK's answer to a batch, whatever it is, then the ping: nothing early.
    expect(batch.lines.at(-1)).toBe('{"result":{},"jsonrpc":"2.0","id":5}');
    expect(batch.lines.some((l) => l.includes('"protocolVersion"'))).toBe(false);
  });

  // A first request with the envelope that is not answered early
  // (resources/list) pins the revision in the SDK, which then answers
  // everything after it: the bytes to compare with.
  const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } }, "io.modelcontextprotocol/clientInfo": { name: "early", version: "0" } };
  const modern = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope } });

  it("writes the SDK's tools/list bytes for a 2026-07-28 opening (tools/list first, as the SDK's client opens the session's pipe)", { timeout: budget({ starts: 2, replies: 3 }) }, async () => {
    const [early, sdk] = await Promise.all([session(line(modern("one", "tools/list")), 1), session(line(modern(0, "resources/list")) + line(modern("one", "tools/list")), 2)]);
    expect(sdk.lines[0]).toContain('"id":0');
    expect(early.lines).toEqual(sdk.lines.slice(1));
    const result = JSON.parse(early.lines[0]!).result as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(["tools", "resultType", "ttlMs", "cacheScope", "_meta"]);
    expect((result.tools as Array<{ name: string }>).map((t) => t.name)).toContain("greet");
  });

  it("writes the SDK's server/discover bytes to a lone server/discover (the SDK client's probe process), answered before the stepfiles load, and exits 0 when stdin ends", { timeout: budget({ starts: 2, replies: 3 }) }, async () => {
    const [early, sdk] = await Promise.all([session(line(modern(1, "server/discover")), 1), session(line(modern(0, "resources/list")) + line(modern(1, "server/discover")), 2)]);
    expect(early.lines).toEqual(sdk.lines.slice(1));
    expect(early.code).toBe(0);
    const result = JSON.parse(early.lines[0]!).result as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(["supportedVersions", "capabilities", "instructions", "resultType", "ttlMs", "cacheScope", "_meta"]);
  });

  it("writes the SDK's server/discover and tools/list bytes when both come on one pipe, and the SDK answers neither again", { timeout: budget({ starts: 2, replies: 5 }) }, async () => {
    const exchange = line(modern(1, "server/discover")) + line(modern(2, "tools/list"));
    const [early, sdk] = await Promise.all([session(exchange, 2), session(line(modern(0, "resources/list")) + exchange, 3)]);
    expect(early.lines).toEqual(sdk.lines.slice(1));
    expect(early.lines).toHaveLength(2);
    expect(JSON.parse(early.lines[0]!)).toMatchObject({ id: 1, result: { supportedVersions: ["2026-07-28"] } });
  });

  it("hands the session to the SDK after an early 2026-07-28 tools/list: later requests are served in that revision, a 2025 initialize refused as the SDK refuses it", { timeout: budget({ starts: 2, replies: 8 }) }, async () => {
    const call = modern(3, "tools/call", { name: "greet", arguments: { name: "Ada" } });
    // The refusal (an error: not counted as an answer by session()) is written before the call is read, so it comes before the call's answer.
    const rest = line(modern(2, "tools/list")) + line(initialize(4, "2025-11-25")) + line(call);
    const [early, sdk] = await Promise.all([session(line(modern(1, "tools/list")) + rest, 3), session(line(modern(0, "resources/list")) + line(modern(1, "tools/list")) + rest, 4)]);
    const byId = (lines: string[]) => new Map(lines.map((l) => JSON.parse(l) as { id?: number }).filter((m) => m.id !== undefined && m.id !== 0).map((m) => [m.id!, m]));
    const answers = byId(early.lines);
    // Each answered once; the SDK's answer to the replayed tools/list is not written.
    expect(early.lines.filter((l) => l.endsWith('"id":1}'))).toHaveLength(1);
    expect([...answers.keys()].sort()).toEqual([1, 2, 3, 4]);
    // The second tools/list (the SDK's) is the early one but for its id.
    expect(early.lines.find((l) => l.endsWith('"id":2}'))).toBe(early.lines.find((l) => l.endsWith('"id":1}'))!.replace('"id":1}', '"id":2}'));
    expect(answers.get(3)).toMatchObject({ result: { structuredContent: { state: "running", step: { step: "hello" } } } });
    // What the SDK answers a 2025 initialize on a pipe the revision pinned, with or without the early answer.
    expect(answers.get(4)).toEqual(byId(sdk.lines).get(4));
    expect(answers.get(4)).toMatchObject({ error: { data: { supported: ["2026-07-28"] } } });
  });

  it("serves a 2026-07-28 opening in that revision (server/discover, then requests with the _meta envelope)", { timeout: budget({ starts: 1, replies: 2 }) }, async () => {
    const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "early", version: "0" } };
    const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } };
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } };
    const { lines } = await session(line(discover) + line(list), 2);
    const [discovered, listed] = lines.map((l) => JSON.parse(l) as { id: number; result?: Record<string, unknown> });
    expect(discovered).toMatchObject({ id: 1, result: { supportedVersions: expect.arrayContaining(["2026-07-28"]), capabilities: { tools: {}, logging: {} } } });
    expect(listed!.id).toBe(2);
    expect((listed!.result!.tools as Array<{ name: string }>).map((t) => t.name)).toContain("greet");
    expect(lines).toHaveLength(2);
  });

  it("serves a 2025 session to a client that probes with server/discover and then falls back to initialize", { timeout: budget({ starts: 1, replies: 4 }) }, async () => {
    const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "early", version: "0" } };
    const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } };
    const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "greet", arguments: { name: "Ada" } } };
    const { lines } = await session(line(discover) + line(initialize(2, "2025-11-25")) + line(initialized) + line(toolsList(3)) + line(call), 4);
    const answers = lines.map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> }).filter((m) => m.id !== undefined);
    expect(answers.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(answers[1]!.result).toMatchObject({ protocolVersion: "2025-11-25" });
    expect(answers[3]!.result).toMatchObject({ structuredContent: { state: "running" } });
  });

  it("exits cleanly when stdin closes before anything, after initialize, or with unanswered requests queued", async () => {
    const none = await session("", 0, { close: true });
    expect(none.lines).toEqual([]);
    const afterInit = await session(line(initialize(1, "2025-11-25")), 0, { close: true });
    expect(afterInit.lines).toHaveLength(1);
    expect(JSON.parse(afterInit.lines[0]!)).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    // Written and closed before the stepfile is even loaded: both early answers, then the SDK sees the end.
    const all = await session(line(initialize(1, "2025-11-25")) + line(initialized) + line(toolsList(2)) + line(ping(3)), 0, { close: true });
    expect(all.lines.slice(0, 2).map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1, 2]);
  });
});
