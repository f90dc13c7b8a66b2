// Interoperability with a real, widely used authorization server:
// oidc-provider on loopback protecting an MCP server that accepts only JWT
// access tokens for its own URL. Every case runs the built CLI: `--auth`
// with the person played by a scripted client on the dev interaction
// screens, then serving over stdio with the printed variables.
import { spawn } from "node:child_process";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stepgateBin } from "../support/paths.js";
import type { SpawnedStepgate } from "../support/stepgate.js";
import { type AuthResult, closeAfterEach, lookup, runAuth, runLookups, serveSuppliers, startSuppliers, structured, text } from "./auth-driver.js";
import { writeSuppliersStepfile, type SuppliersStepfile } from "./setup.js";
import { consent, MCP_SCOPE, startOidcWorld, type OidcWorld, type OidcWorldOptions } from "./oidc-provider-world.js";

let world: OidcWorld | undefined;
let served: SpawnedStepgate | undefined;
closeAfterEach(
  () => [served, world],
  () => (served = world = undefined),
);

type Setup = SuppliersStepfile;

/** The `suppliers` stepfile against the world's MCP server. */
function writeStepfile(w: OidcWorld, scopes: string[], tokenUrl = w.tokenEndpoint): Setup {
  return writeSuppliersStepfile({ mcpHost: w.mcp.host, mcpUrl: w.mcpUrl, scopes, tokenUrl });
}

/** `stepgate --auth`, approved by the scripted person on the consent screens as soon as the URL is printed. */
const authorize = (setup: Setup, extra: string[] = [], env: Record<string, string> = {}): Promise<AuthResult> => runAuth(setup, consent, extra, env);

async function serve(setup: Setup, env: Record<string, string>, extra: string[] = []): Promise<SpawnedStepgate> {
  served = await serveSuppliers(setup, env, extra);
  return served;
}
const start = startSuppliers;

/** Refresh tokens, access tokens, codes and client secrets the provider issued, read from its adapter. */
function expectNoTokens(haystack: string, auth?: AuthResult): void {
  const secrets = Object.values(auth?.vars ?? {}).filter((v) => v.length > 20);
  for (const secret of secrets) expect(haystack).not.toContain(secret);
  // JWT access tokens start with the base64url of '{"' (eyJ); none may be printed or recorded.
  expect(haystack).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
}

const refreshes = (w: OidcWorld) => w.tokenRequests.filter((r) => r.grant === "refresh_token");

async function world_(options: OidcWorldOptions = {}): Promise<OidcWorld> {
  world = await startOidcWorld(options);
  return world;
}

// Each case spawns the CLI once or twice and drives a browser flow: minutes on a loaded 2-core machine.
describe("interoperability with oidc-provider", { timeout: 180_000 }, () => {
  it("authorizes with dynamic registration (issuer at the root, no openid), then calls with JWTs for the MCP server", async () => {
    const w = await world_();
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(Object.keys(auth.vars).sort()).toEqual(["SUPPLIERS_CLIENT_ID", "SUPPLIERS_REFRESH_TOKEN"]);
    expect(auth.url!.searchParams.get("resource")).toBe(w.mcpUrl);
    expect(auth.url!.searchParams.get("scope")).toBe(MCP_SCOPE);
    // The registration with `scope` was refused (a resource scope is not client metadata here), and retried without it.
    const registrations = w.received.filter((r) => r.method === "POST" && r.path === "/reg");
    expect(registrations).toHaveLength(2);
    expect(w.tokenRequests[0]).toMatchObject({ grant: "authorization_code", resource: w.mcpUrl, status: 200 });

    const s = await serve(setup, auth.vars);
    const replies = await runLookups(s, 2);
    // Every token request names the MCP server (RFC 8707), refreshes included.
    expect(refreshes(w).length).toBeGreaterThan(0);
    for (const request of refreshes(w)) expect(request).toMatchObject({ resource: w.mcpUrl, status: 200 });
    expect(w.refusals).toEqual([]);
    expectNoTokens([JSON.stringify(replies), s.stderr(), setup.ledger(), auth.stderr].join("\n"), auth);
  });

  it("finds an issuer under a path by OpenID discovery, asks for offline_access with openid, and checks the id_token's iss on refresh", async () => {
    const w = await world_({ issuerPath: "/oidc" });
    const setup = writeStepfile(w, ["openid", MCP_SCOPE]);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.url!.searchParams.get("scope")).toBe(`openid ${MCP_SCOPE} offline_access`);
    expect(auth.url!.searchParams.get("prompt")).toBe("consent");
    // RFC 8414 and OIDC with path insertion were tried first, then the appended form answered.
    const discovery = w.received.filter((r) => r.path.includes(".well-known")).map((r) => r.path);
    expect(discovery.slice(0, 3)).toEqual(["/.well-known/oauth-authorization-server/oidc", "/.well-known/openid-configuration/oidc", "/oidc/.well-known/openid-configuration"]);

    const s = await serve(setup, auth.vars);
    await runLookups(s, 2);
    // The refresh returned an id_token whose iss has the path, and the rotated grant still works.
    expect(refreshes(w).map((r) => r.status)).toEqual([200]);
    expect(w.refusals).toEqual([]);
  });

  it("finds the MCP server's metadata at the root well-known URL when the path-inserted one is absent", async () => {
    const w = await world_({ rootResourceMetadata: true });
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(w.mcp.received.filter((r) => r.path.startsWith("/.well-known")).map((r) => r.path)).toEqual(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]);
    await runLookups(await serve(setup, auth.vars), 1);
  });

  it("uses a pre-registered public client with --client-id", async () => {
    const w = await world_({ clients: [{ client_id: "stepgate-public", token_endpoint_auth_method: "none", application_type: "native", redirect_uris: ["http://127.0.0.1/callback"], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }] });
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup, ["--client-id", "stepgate-public"]);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.vars.SUPPLIERS_CLIENT_ID).toBe("stepgate-public");
    expect(w.received.some((r) => r.path === "/reg")).toBe(false);
    await runLookups(await serve(setup, auth.vars), 1);
  });

  it("uses a pre-registered confidential client with --client-id and <NAME>_CLIENT_SECRET, for the exchange and every refresh", async () => {
    const secret = "a-confidential-client-secret-of-enough-length";
    const w = await world_({ clients: [{ client_id: "stepgate-confidential", client_secret: secret, token_endpoint_auth_method: "client_secret_basic", application_type: "native", redirect_uris: ["http://127.0.0.1/callback"], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }] });
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup, ["--client-id", "stepgate-confidential"], { SUPPLIERS_CLIENT_SECRET: secret });
    expect(auth.code, auth.stderr).toBe(0);
    // The secret came from the environment, so it is not printed back.
    expect(auth.stdout).not.toContain(secret);
    expect(auth.stderr).not.toContain(secret);
    expect(w.tokenRequests[0]).toMatchObject({ grant: "authorization_code", status: 200 });
    const s = await serve(setup, { ...auth.vars, SUPPLIERS_CLIENT_SECRET: secret });
    await runLookups(s, 1);
    expect(refreshes(w).map((r) => r.status)).toEqual([200]);
    expect([s.stderr(), setup.ledger()].join("\n")).not.toContain(secret);
  });

  it("offers the access token as SUPPLIERS_API_KEY when no refresh token comes, naming offline_access because the server lists it", async () => {
    // A client not allowed the refresh_token grant gets no refresh token.
    const w = await world_({ clients: [{ client_id: "stepgate-no-refresh", token_endpoint_auth_method: "none", application_type: "native", redirect_uris: ["http://127.0.0.1/callback"], grant_types: ["authorization_code"], response_types: ["code"] }] });
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup, ["--client-id", "stepgate-no-refresh"]);
    expect(auth.code, auth.stderr).toBe(0);
    expect(Object.keys(auth.vars)).toEqual(["SUPPLIERS_API_KEY"]);
    expect(auth.stderr).toContain("For a refresh token, add offline_access to the scopes of credential suppliers (the server lists it) and run --auth again.");
    expect(auth.stderr).toMatch(/it expires at \S+ \(in 60 minutes\)/);
    expect(auth.stderr).not.toContain(auth.vars.SUPPLIERS_API_KEY);
    const s = await serve(setup, auth.vars);
    const replies = await runLookups(s, 1);
    expect(refreshes(w)).toEqual([]);
    expect(w.refusals).toEqual([]);
    expectNoTokens([JSON.stringify(replies), s.stderr(), setup.ledger()].join("\n"));
  });

  it("reuses short-lived tokens across calls instead of refreshing before each one", async () => {
    const w = await world_({ accessTokenTtlS: 60 });
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    await runLookups(await serve(setup, auth.vars), 5);
    // One refresh at start serves all five calls (a 60 s token is used for 54 s).
    expect(refreshes(w)).toHaveLength(1);
  });

  it("refreshes after a 401 and sends the call once more", async () => {
    const w = await world_();
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup);
    const s = await serve(setup, auth.vars);
    const started = await start(s);
    // The resource server stops trusting the current token (a key rotation, say): the next call gets 401.
    const issued = refreshes(w).length;
    w.refuseNext();
    const reply = await lookup(s, structured(started).run!);
    expect(reply.isError ?? false, text(reply)).toBe(false);
    expect(refreshes(w)).toHaveLength(issued + 1);
    expect(refreshes(w).at(-1)).toMatchObject({ resource: w.mcpUrl, status: 200 });
  });

  it("stops with InvalidGrant, without retrying, once the grant is revoked", async () => {
    const w = await world_();
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const auth = await authorize(setup);
    const revoked = await fetch(`${w.issuer}/token/revocation`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: auth.vars.SUPPLIERS_REFRESH_TOKEN!, client_id: auth.vars.SUPPLIERS_CLIENT_ID! }) });
    expect(revoked.status).toBe(200);
    const s = await serve(setup, auth.vars);
    const started = await start(s);
    expect(structured(started)).toMatchObject({ state: "failed", error: "InvalidGrant" });
    expect(refreshes(w).map((r) => r.status)).toEqual([400]);
    expectNoTokens([text(started), s.stderr(), setup.ledger()].join("\n"), auth);
  });

  it("refuses a wrong token_url in preflight before any credential is read", async () => {
    const w = await world_();
    const setup = writeStepfile(w, [MCP_SCOPE], `${w.origin}/elsewhere/token`);
    const s = await serve(setup, { SUPPLIERS_REFRESH_TOKEN: "never-sent-refresh-token", SUPPLIERS_CLIENT_ID: "some-client" });
    const started = await start(s);
    expect(structured(started)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(started)).toContain("tool directory");
    expect(text(started)).toContain(w.tokenEndpoint);
    expect(w.tokenRequests).toEqual([]);
    // Only discovery's unauthenticated probe (a ping, to read the 401's WWW-Authenticate) reached the MCP server: no credential, no MCP call.
    expect(w.mcp.received.filter((r) => r.method === "POST").map((r) => [r.headers.authorization, (JSON.parse(r.body) as { method: string }).method])).toEqual([[undefined, "ping"]]);
    expect([text(started), s.stderr(), setup.ledger()].join("\n")).not.toContain("never-sent-refresh-token");
  });

  it("with --token-store, survives a restart after a rotation (issuer under a path, openid)", async () => {
    const w = await world_({ issuerPath: "/oidc" });
    const setup = writeStepfile(w, ["openid", MCP_SCOPE]);
    const store = join(setup.dir, "tokens.json");
    const auth = await authorize(setup, ["--token-store", store]);
    expect(auth.code, auth.stderr).toBe(0);
    // The refresh token went to the store, not to stdout.
    expect(Object.keys(auth.vars)).toEqual(["SUPPLIERS_CLIENT_ID"]);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    const env = { SUPPLIERS_CLIENT_ID: auth.vars.SUPPLIERS_CLIENT_ID! };

    const first = await serve(setup, env, ["--token-store", store]);
    await runLookups(first, 1);
    await first.close();
    const afterFirst = readFileSync(store, "utf8");
    // A public client's refresh token rotates at every refresh; the rotated one is on disk.
    expect(refreshes(w).map((r) => r.status)).toEqual([200]);

    const second = await serve(setup, env, ["--token-store", store]);
    await runLookups(second, 1);
    expect(refreshes(w).map((r) => r.status)).toEqual([200, 200]);
    expect(readFileSync(store, "utf8")).not.toBe(afterFirst);
    expect(w.refusals).toEqual([]);
    expectNoTokens([first.stderr(), second.stderr(), setup.ledger()].join("\n"));
  });

  it("without a token store, a restart after a rotation presents the spent token, and the server revokes the grant", async () => {
    const w = await world_({ issuerPath: "/oidc" });
    const setup = writeStepfile(w, ["openid", MCP_SCOPE]);
    const auth = await authorize(setup);
    const first = await serve(setup, auth.vars);
    await runLookups(first, 1);
    await first.close();
    const second = await serve(setup, auth.vars);
    const started = await start(second);
    expect(structured(started)).toMatchObject({ state: "failed", error: "InvalidGrant" });
  });

  it("refuses a token store that others can read, at start, in one line", async () => {
    const w = await world_();
    const setup = writeStepfile(w, [MCP_SCOPE]);
    const store = join(setup.dir, "tokens.json");
    writeFileSync(store, JSON.stringify({ stepgate_token_store: 1, grants: [] }));
    chmodSync(store, 0o644);
    const child = spawn(process.execPath, [stepgateBin(), "--token-store", store, setup.stepfile], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(stderr).toBe(`stepgate: --token-store ${store} can be read or written by others (mode 644); run chmod 600 ${store}\n`);
  });
});
