// Refresh-token credentials through the built CLI: a real authorization
// server and a real MCP server on loopback, Stepgate driven by the SDK's
// client over stdio, as the seed's Credentials and Retries sections say.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import { refreshEnv, startWorld, type OAuthWorld } from "./setup.js";

let world: OAuthWorld | undefined;
let stepgate: SpawnedStepgate | undefined;
afterEach(async () => {
  await stepgate?.close();
  await world?.close();
  stepgate = undefined;
  world = undefined;
});

const LIMITS = ["--request-timeout-ms", "5000"];

async function launch(w: OAuthWorld, env: Record<string, string>): Promise<SpawnedStepgate> {
  stepgate = await spawnStepgate(["--ledger-dir", w.ledgerDir, ...LIMITS, w.stepfile], env);
  return stepgate;
}

type Structured = { run?: string; state?: string; error?: string; item?: string };
const structured = (r: CallToolResult) => (r.structuredContent ?? {}) as Structured;
const text = (r: CallToolResult) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");

async function start(s: SpawnedStepgate): Promise<CallToolResult> {
  return (await s.client.callTool({ name: "suppliers", arguments: {} })) as CallToolResult;
}
async function lookup(s: SpawnedStepgate, run: string): Promise<CallToolResult> {
  return (await s.client.callTool({ name: "stepgate_call", arguments: { run, operation: "lookup", arguments: { query: "Acme" } } })) as CallToolResult;
}

/** Every place a secret could leak to: replies, stderr, ledger files. */
function expectNoSecrets(w: OAuthWorld, s: SpawnedStepgate, replies: CallToolResult[]): void {
  const seen = [JSON.stringify(replies), s.stderr(), w.ledger()].join("\n");
  for (const secret of w.as.secrets()) expect(seen).not.toContain(secret);
}

const refreshes = (w: OAuthWorld) => w.as.tokenRequests.filter((r) => r.grant === "refresh_token");
const mcpStatuses = (w: OAuthWorld) => w.mcp.received.filter((r) => r.method === "POST").length;

describe("oauth2 credentials in the refresh form", () => {
  it("refreshes at start, sends the access token, and reuses it across runs of one process", async () => {
    world = await startWorld();
    const grant = world.as.grant();
    const s = await launch(world, refreshEnv(grant));
    const first = await start(s);
    expect(structured(first).state).toBe("running");
    expect(refreshes(world)).toHaveLength(1);
    expect(refreshes(world)[0]).toMatchObject({ refreshToken: grant.refreshToken, clientId: grant.clientId, outcome: "ok" });
    const call = await lookup(s, structured(first).run!);
    expect(call.isError ?? false).toBe(false);
    expect(text(call)).toContain("based in Leeds");
    const second = await start(s);
    expect(structured(second).state).toBe("running");
    await lookup(s, structured(second).run!);
    // One exchange for both runs: the token is held until 60 s before it expires.
    expect(refreshes(world)).toHaveLength(1);
    const bearers = new Set(world.mcp.received.map((r) => r.headers.authorization).filter(Boolean));
    expect(bearers.size).toBe(1);
    expectNoSecrets(world, s, [first, call, second]);
  });

  it("refreshes before a request once the token is within its expiry margin, with the rotated refresh token", async () => {
    // 6 s tokens are usable for 5.4 s (the margin is a tenth of a lifetime under 10 minutes):
    // long enough for the rest of the start after the first refresh on a loaded machine,
    // short enough to wait out.
    world = await startWorld({ accessLifetimeS: 6 });
    const grant = world.as.grant();
    const s = await launch(world, refreshEnv(grant));
    const first = await start(s);
    await new Promise((resolve) => setTimeout(resolve, 5_600));
    const before = world.mcp.received.length;
    const call = await lookup(s, structured(first).run!);
    expect(call.isError ?? false).toBe(false);
    const [initial, next] = refreshes(world);
    expect(refreshes(world)).toHaveLength(2);
    // The first refresh rotated the token; the second presented the new one (the old one is spent).
    expect(next!.refreshToken).not.toBe(initial!.refreshToken);
    expect(next!.outcome).toBe("ok");
    // Refreshed before sending, not after a refusal: the old token was still good at the
    // server (6 s) unless the machine was slow, yet the call already carried the new one:
    // a stale token sent first would show up in sentAfter.
    const sentBefore = new Set(world.mcp.received.slice(0, before).map((r) => r.headers.authorization));
    const sentAfter = world.mcp.received.slice(before).map((r) => r.headers.authorization);
    expect(sentAfter.length).toBeGreaterThan(0);
    expect(sentAfter.some((a) => sentBefore.has(a))).toBe(false);
    expectNoSecrets(world, s, [first, call]);
  });

  it("refreshes when the API answers 401 and sends the request once more", async () => {
    world = await startWorld();
    const s = await launch(world, refreshEnv(world.as.grant()));
    const first = await start(s);
    world.as.expireAccessTokens();
    const posts = mcpStatuses(world);
    const call = await lookup(s, structured(first).run!);
    expect(call.isError ?? false).toBe(false);
    expect(text(call)).toContain("based in Leeds");
    expect(refreshes(world).map((r) => r.outcome)).toEqual(["ok", "ok"]);
    // The refused request and its resend: at least two posts, and the run still running.
    expect(mcpStatuses(world) - posts).toBeGreaterThanOrEqual(2);
    expect(structured(call).state).toBe("running");
    // A refresh is not a retry: no retry record.
    expect(world.ledger()).not.toContain('"type":"retry"');
    expectNoSecrets(world, s, [first, call]);
  });

  it("stops the run with InvalidGrant when the refresh token was revoked, without retrying", async () => {
    world = await startWorld();
    const s = await launch(world, refreshEnv(world.as.grant()));
    const first = await start(s);
    world.as.revokeRefreshTokens();
    world.as.expireAccessTokens();
    const call = await lookup(s, structured(first).run!);
    expect(structured(call)).toMatchObject({ state: "failed", error: "InvalidGrant" });
    expect(text(call)).toMatch(/^InvalidGrant/);
    expect(refreshes(world).map((r) => r.outcome)).toEqual(["ok", "invalid_grant"]);
    // A later run in the same process fails at start without asking again.
    const again = await start(s);
    expect(structured(again)).toMatchObject({ state: "failed", error: "InvalidGrant" });
    expect(refreshes(world)).toHaveLength(2);
    await s.close();
    const records = world.ledger().trim().split("\n").map((l) => JSON.parse(l) as { type: string; error?: string; run: string });
    const failed = records.filter((r) => r.type === "run_failed");
    expect(failed.map((r) => r.error)).toEqual(["InvalidGrant", "InvalidGrant"]);
    expect(records.some((r) => r.type === "retry")).toBe(false);
    expectNoSecrets(world, s, [first, call, again]);
  });

  it("stops at start with InvalidGrant when the refresh token is already revoked", async () => {
    world = await startWorld();
    const grant = world.as.grant();
    world.as.revokeRefreshTokens();
    const s = await launch(world, refreshEnv(grant));
    const first = await start(s);
    expect(structured(first)).toMatchObject({ state: "failed", error: "InvalidGrant" });
    expect(refreshes(world)).toHaveLength(1);
    // The MCP server was never reached with a token.
    expect(world.mcp.received.filter((r) => r.headers.authorization)).toEqual([]);
    expectNoSecrets(world, s, [first]);
  });

  it("authenticates a confidential client with its secret, as HTTP Basic", async () => {
    world = await startWorld();
    const secret = "s3cret-value-1";
    const grant = world.as.grant({ secret });
    const s = await launch(world, refreshEnv(grant, secret));
    const first = await start(s);
    expect(structured(first).state).toBe("running");
    const token = world.as.received.find((r) => r.path === "/token")!;
    expect(token.headers.authorization).toMatch(/^Basic /);
    expect(token.body).not.toContain(secret);
    expect(s.stderr() + world.ledger() + JSON.stringify(first)).not.toContain(secret);
  });
});

describe("the token_url preflight check", () => {
  it("fails preflight at the tool when the advertised token endpoint is another", async () => {
    world = await startWorld({ advertisedTokenEndpoint: "http://127.0.0.1:9/token" });
    const s = await launch(world, refreshEnv(world.as.grant()));
    const first = await start(s);
    expect(structured(first)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(first)).toContain("tool directory");
    expect(text(first)).toContain("http://127.0.0.1:9/token");
    // Checked before any credential is read: no token exchange, no bearer anywhere.
    expect(world.as.tokenRequests).toEqual([]);
    expect(world.mcp.received.filter((r) => r.headers.authorization)).toEqual([]);
  });

  it("fails preflight when the authorization server is not on token_url's host, without going there", async () => {
    world = await startWorld({ tokenUrl: () => "http://127.0.0.1:9/token" });
    const s = await launch(world, { SUPPLIERS_API_KEY: "ready-token" });
    const first = await start(s);
    expect(structured(first)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(first)).toContain("not on the host of token_url");
    expect(world.as.received).toEqual([]);
  });

  it("fails with AuthorizationFailed when the metadata cannot be read", async () => {
    world = await startWorld({ noResourceMetadata: true });
    const s = await launch(world, { SUPPLIERS_API_KEY: "ready-token" });
    const first = await start(s);
    expect(structured(first)).toMatchObject({ state: "failed", error: "AuthorizationFailed" });
    expect(text(first)).toContain("protected resource metadata");
    expect(world.mcp.received.filter((r) => r.headers.authorization)).toEqual([]);
  });

  it("names every way to set an oauth2 credential with a token_url when none is set", async () => {
    world = await startWorld();
    const s = await launch(world, {});
    const first = await start(s);
    expect(structured(first)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(first)).toContain("SUPPLIERS_API_KEY, or SUPPLIERS_REFRESH_TOKEN and SUPPLIERS_CLIENT_ID");
  });
});
