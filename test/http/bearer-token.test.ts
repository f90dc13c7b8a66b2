// Issue 22, bearer tokens for HTTP mode, through the built CLI: with
// --http-token-file every request needs `Authorization: Bearer <token>`;
// missing, wrong, another scheme and a token in the query string all get
// 401 with a Bearer challenge and a JSON-RPC body, before the session store
// is touched; the token never appears in the server's output or ledgers; a
// file others can read is refused; `new:` writes a fresh token and never
// overwrites. Without the option the server says once who can use it.
import { execFile } from "node:child_process";
import { existsSync, chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, startCliServer, stepgateBin, type CliServer } from "./fixtures/cli-server.js";
import { connectClient, INITIALIZE, MCP_HEADERS, rawRequest, startHarness, type RawResponse } from "./fixtures/harness.js";

const greet = join(repoRoot, "test/fixtures/greet.stepfile.yaml");
const dir = mkdtempSync(join(tmpdir(), "stepgate-token-"));
const tokenFile = join(dir, "http-token");
let server: CliServer;
let token: string;

beforeAll(async () => {
  server = await startCliServer(["--ledger-dir", join(dir, "ledgers"), "--http-token-file", `new:${tokenFile}`, greet]);
  token = readFileSync(tokenFile, "utf8").trim();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function expectRefused(response: RawResponse, challenge = /^Bearer realm="stepgate"$/): void {
  expect(response.status).toBe(401);
  expect(response.headers["www-authenticate"]).toMatch(challenge);
  expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringContaining("Unauthorized") }, id: null });
}

const post = (headers: Record<string, string>, body: unknown = INITIALIZE, path = "/mcp") =>
  rawRequest({ port: server.port, path, headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });

describe("new:<file>", () => {
  it("on a busy port: one clear line and exit 1, no token file written, and the same command works once the port is free", async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    const port = (squatter.address() as { port: number }).port;
    const fresh = join(dir, "busy-port-token");
    const args = ["--http-token-file", `new:${fresh}`, greet];
    const run = await promisify(execFile)(process.execPath, [stepgateBin, "--http", String(port), ...args]).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`stepgate: cannot listen on 127.0.0.1:${port}: it is in use by another process (EADDRINUSE); choose another --http port, or 0 for a free one`);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(existsSync(fresh)).toBe(false);
    const again = await startCliServer(args, { port });
    try {
      expect(again.stderr()).toContain(`wrote a new bearer token to ${fresh}`);
      expect(readFileSync(fresh, "utf8").trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await again.stop();
    }
  });

  it("writes a random 256-bit token, readable only by its owner, and prints where it is, never the token", () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(server.stderr()).toContain(`wrote a new bearer token to ${tokenFile}`);
    expect(server.stderr()).not.toContain(token);
  });

  it("never overwrites a file: the server refuses to start and the file is unchanged", async () => {
    const before = readFileSync(tokenFile, "utf8");
    const run = await promisify(execFile)(process.execPath, [stepgateBin, "--http", "0", "--http-token-file", `new:${tokenFile}`, greet]).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${tokenFile} already exists, and Stepgate never overwrites a token file`);
    expect(run.stderr).not.toContain(token);
    expect(readFileSync(tokenFile, "utf8")).toBe(before);
  });
});

describe("a request without the token", () => {
  it.each([
    ["no Authorization header", {}],
    ["another scheme", { authorization: `Basic ${Buffer.from(`x:${"t"}`).toString("base64")}` }],
    ["the token under another scheme", { authorization: `Token PLACEHOLDER` }],
    ["Bearer with nothing after it", { authorization: "Bearer " }],
    ["Bearer with two words", { authorization: "Bearer a b" }],
  ])("%s: 401 with a Bearer challenge and a JSON-RPC error", async (_, headers: Record<string, string>) => {
    const filled = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("PLACEHOLDER", token)]));
    expectRefused(await post(filled));
  });

  it("a wrong token: 401, error invalid_token", async () => {
    expectRefused(await post({ authorization: `Bearer ${token.slice(0, -1)}x` }), /^Bearer realm="stepgate", error="invalid_token"$/);
    expectRefused(await post({ authorization: `Bearer ${token}${token}` }), /error="invalid_token"/);
  });

  it("the token in the query string only: 401", async () => {
    expectRefused(await post({}, INITIALIZE, `/mcp?access_token=${token}`));
    expectRefused(await post({}, INITIALIZE, `/mcp?token=${token}`));
  });

  it("is refused the same way whatever its method, tools/list included, in both eras", async () => {
    const open = await post({ authorization: `Bearer ${token}` });
    const session = String(open.headers["mcp-session-id"]);
    const legacy = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const modern = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
    const answers = [
      await post(legacy, { jsonrpc: "2.0", id: 2, method: "tools/list" }),
      await post(legacy, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "greet", arguments: { name: "x" } } }),
      await post(modern, { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: meta } }),
      await post({}, INITIALIZE),
      await rawRequest({ port: server.port, method: "DELETE", headers: legacy }),
      await rawRequest({ port: server.port, method: "GET", headers: { ...legacy, accept: "text/event-stream" } }),
    ];
    for (const answer of answers) expectRefused(answer);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    // The session is untouched: it still answers with the token.
    const listed = await post({ ...legacy, authorization: `Bearer ${token}` }, { jsonrpc: "2.0", id: 5, method: "tools/list" });
    expect(listed.status).toBe(200);
    expect(listed.body).toContain('"name":"greet"');
  });

  it("is refused before the session store is touched (in-process, the store's count)", async () => {
    const h = await startHarness({ token: "in-process-token" });
    try {
      expectRefused(await rawRequest({ port: h.server.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }));
      expect(h.server.sessions.size).toBe(0);
      expect(h.factory.created).toHaveLength(0);
      expect(h.log).toEqual([expect.stringMatching(/^listening on /), "401 POST /mcp"]);
    } finally {
      await h.server.close();
    }
  });
});

describe("a request with the token", () => {
  it("is served: the scheme in any case, the TypeScript SDK client with the header in requestInit", async () => {
    expect((await post({ authorization: `bearer ${token}` })).status).toBe(200);
    const client = await connectClient(server.url, "legacy", { authorization: `Bearer ${token}` });
    const started = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(started.isError).toBeFalsy();
    await client.close();
    const modern = await connectClient(server.url, "modern", { authorization: `Bearer ${token}` });
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain("greet");
    await modern.close();
  });

  it("leaves the token out of the server's output and the ledgers", () => {
    expect(server.stderr()).toMatch(/401 POST \/mcp/);
    expect(server.stderr()).not.toContain(token);
    const ledgers = join(dir, "ledgers");
    const files = readdirSync(ledgers);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(join(ledgers, file), "utf8")).not.toContain(token);
  });
});

describe("the token file", () => {
  const start = (args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, [stepgateBin, ...args, greet], { env: { ...process.env, ...env }, timeout: 30_000 }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );

  it("is refused when others can read it, naming the file and never its token", async () => {
    const readable = join(dir, "readable-token");
    writeFileSync(readable, "a-secret-token-value\n", { mode: 0o644 });
    chmodSync(readable, 0o644);
    const run = await start(["--http", "0", "--http-token-file", readable]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`stepgate: --http-token-file ${readable} can be read or written by others (mode 644); run chmod 600 ${readable}`);
    expect(run.stderr).not.toContain("a-secret-token-value");
  });

  it("is read from STEPGATE_HTTP_TOKEN_FILE too, and refused there the same way", async () => {
    const readable = join(dir, "readable-env-token");
    writeFileSync(readable, "another-secret\n", { mode: 0o640 });
    chmodSync(readable, 0o640);
    const run = await start(["--http", "0"], { STEPGATE_HTTP_TOKEN_FILE: readable });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${readable} can be read or written by others (mode 640)`);
    const envServer = await startCliServer([greet], { env: { STEPGATE_HTTP_TOKEN_FILE: tokenFile } });
    try {
      expect(envServer.stderr()).toContain(`every request must carry Authorization: Bearer <the token in ${tokenFile}>`);
      expect((await rawRequest({ port: envServer.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) })).status).toBe(401);
      expect((await rawRequest({ port: envServer.port, headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: JSON.stringify(INITIALIZE) })).status).toBe(200);
    } finally {
      await envServer.stop();
    }
  });

  it("is refused when missing, empty or not a token", async () => {
    const missing = await start(["--http", "0", "--http-token-file", join(dir, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${join(dir, "nope")} does not exist (give new:${join(dir, "nope")} to have Stepgate write a new token there)`);
    const spaced = join(dir, "spaced");
    writeFileSync(spaced, "two words\n", { mode: 0o600 });
    const bad = await start(["--http", "0", "--http-token-file", spaced]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${spaced} holds no bearer token`);
    expect(bad.stderr).not.toContain("two words");
  });

  it("is only for --http (usage error, exit 2)", async () => {
    const run = await start(["--http-token-file", tokenFile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--http-token-file is only for --http");
  });
});

describe("without --http-token-file", () => {
  it("serves as before and says once at start that any local process can use it, and how to require a token", async () => {
    const open = await startCliServer([greet]);
    try {
      const lines = open.stderr().split("\n").filter((line) => line.includes("any local process"));
      expect(lines).toEqual(["stepgate: any local process can use this server; to require a bearer token, start it with --http-token-file new:<file>"]);
      expect((await rawRequest({ port: open.port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) })).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});
