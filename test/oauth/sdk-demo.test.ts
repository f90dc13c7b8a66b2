// Interoperability with the TypeScript MCP SDK's demo authorization server
// and bearer-guarded MCP server (test/oauth/sdk-demo-world.ts), through the
// built CLI: `--auth` with the person's browser played by `browse()`, then
// serving over stdio with what it printed.
import { createServer } from "node:net";
import { join } from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SpawnedStepgate } from "../support/stepgate.js";
import { type AuthResult, closeAfterEach, expectNone, runAuth, runLookups, serveSuppliers, startSuppliers, structured, text } from "./auth-driver.js";
import { writeSuppliersStepfile, type SuppliersStepfile } from "./setup.js";
import { browse, SDK_SCOPE, startSdkWorld, type SdkWorld, type SdkWorldOptions } from "./sdk-demo-world.js";

let world: SdkWorld | undefined;
let served: SpawnedStepgate | undefined;
closeAfterEach(
  () => [served, world],
  () => (served = world = undefined),
);

async function world_(options: SdkWorldOptions = {}): Promise<SdkWorld> {
  world = await startSdkWorld(options);
  return world;
}

function stepfile(w: SdkWorld): SuppliersStepfile {
  return writeSuppliersStepfile({ mcpHost: w.mcpHost, mcpUrl: w.mcpUrl, scopes: [SDK_SCOPE], tokenUrl: w.tokenEndpoint });
}

/** The person follows the authorization URL; the final page reached is kept. */
function authorize(setup: SuppliersStepfile, extra: string[] = [], env: Record<string, string> = {}): Promise<AuthResult & { landed?: { url: URL; status: number } }> {
  let landed: { url: URL; status: number } | undefined;
  return runAuth(setup, async (url) => (landed = await browse(url)), extra, env).then((r) => ({ ...r, ...(landed ? { landed } : {}) }));
}

async function serve(setup: SuppliersStepfile, env: Record<string, string>, extra: string[] = []): Promise<SpawnedStepgate> {
  served = await serveSuppliers(setup, env, extra);
  return served;
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const refreshes = (w: SdkWorld) => w.tokenRequests.filter((r) => r.grant === "refresh_token");

describe("interoperability with the TypeScript MCP SDK's demo authorization server", { timeout: 180_000 }, () => {
  it("finds the resource metadata only at the 401's resource_metadata URL, for --auth and for every run's preflight", async () => {
    const w = await world_({ refresh: true });
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(Object.keys(auth.vars).sort()).toEqual(["SUPPLIERS_CLIENT_ID", "SUPPLIERS_REFRESH_TOKEN"]);
    // The unauthenticated probe got the challenge, and its URL was read; no well-known URL was needed.
    expect(w.mcpReceived.slice(0, 2)).toEqual([
      { method: "POST", path: "/mcp", authorization: false },
      { method: "GET", path: "/meta/suppliers-resource", authorization: false },
    ]);

    const s = await serve(setup, auth.vars);
    const replies = await runLookups(s, 2);
    // The run's preflight found it the same way: no well-known URL was ever asked for.
    expect(w.mcpReceived.filter((r) => r.path === "/meta/suppliers-resource")).toHaveLength(2);
    expect(w.mcpReceived.some((r) => r.path.startsWith("/.well-known"))).toBe(false);
    expect(refreshes(w).map((r) => r.status)).toEqual([200]);
    expect(refreshes(w)[0]!.resource).toBe(w.mcpUrl);
    expectNone([JSON.stringify(replies), s.stderr(), setup.ledger(), auth.stderr].join("\n"), w.secrets());
  });

  it("names every URL tried, and what each answered, when the metadata cannot be read", async () => {
    const w = await world_({ metadataPath: "/meta/missing", metadataServedAt: "/meta/elsewhere" });
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code).toBe(1);
    const origin = new URL(w.mcpUrl).origin;
    expect(auth.stderr.trim()).toBe(
      `AuthorizationFailed: authorization failed: could not read the protected resource metadata of ${w.mcpUrl}: no metadata found; tried POST ${w.mcpUrl} answered 401 naming resource_metadata ${origin}/meta/missing, ${origin}/meta/missing answered 404, ${origin}/.well-known/oauth-protected-resource/mcp answered 404, ${origin}/.well-known/oauth-protected-resource answered 404`,
    );
    expect(auth.url).toBeUndefined();
  });

  it("passes a refused registration's error and error_description through", async () => {
    const w = await world_({ refuseRegistration: "native clients must be approved by an administrator first" });
    const auth = await authorize(stepfile(w));
    expect(auth.code).toBe(1);
    expect(auth.stderr.trim()).toBe(`AuthorizationFailed: authorization failed: client registration at ${w.issuer}register failed: the server answered "invalid_client_metadata": "native clients must be approved by an administrator first"`);
    expect(auth.url).toBeUndefined();
  });

  it("keeps client_secret_post, the method the server registered, for the exchange and every refresh, though it lists basic too", async () => {
    const w = await world_({ refresh: true, confidential: true, listBasic: true });
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.vars.SUPPLIERS_CLIENT_AUTH_METHOD).toBe("client_secret_post");
    expect(auth.vars.SUPPLIERS_CLIENT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(w.tokenRequests[0]).toMatchObject({ grant: "authorization_code", basic: false, secretInBody: true, status: 200 });

    const s = await serve(setup, auth.vars);
    await runLookups(s, 1);
    expect(refreshes(w)).toEqual([expect.objectContaining({ basic: false, secretInBody: true, status: 200 })]);
    expectNone([s.stderr(), setup.ledger(), auth.stderr].join("\n"), w.secrets());
    await s.close();
    served = undefined;

    // Without the method, a refresh would fall back to HTTP Basic, which this server refuses: the variable is what makes it work.
    const { SUPPLIERS_CLIENT_AUTH_METHOD: _method, ...withoutMethod } = auth.vars;
    const rotated = { ...withoutMethod, SUPPLIERS_REFRESH_TOKEN: "spent-or-not, refused before it is read" };
    const again = await serve(setup, rotated);
    const started = await startSuppliers(again);
    expect(structured(started)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(refreshes(w).at(-1)).toMatchObject({ basic: true, secretInBody: false, status: 400 });
    // The server's own words reach the message, quoted; no secret does.
    expect(text(started)).toContain('the server answered "invalid_request"');
    expectNone([text(started), again.stderr(), setup.ledger()].join("\n"), w.secrets());
    await again.close();
    served = undefined;

    // A method that is not one of the two is refused at preflight, before any token request.
    const requests = w.tokenRequests.length;
    const wrong = await serve(setup, { ...auth.vars, SUPPLIERS_CLIENT_AUTH_METHOD: "private_key_jwt" });
    const refused = await startSuppliers(wrong);
    expect(structured(refused)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(refused)).toContain('credential suppliers: SUPPLIERS_CLIENT_AUTH_METHOD is "private_key_jwt"; expected client_secret_basic or client_secret_post');
    expect(w.tokenRequests).toHaveLength(requests);
  });

  it("with --token-store, keeps the registered method with the client in the store", async () => {
    const w = await world_({ refresh: true, confidential: true, listBasic: true });
    const setup = stepfile(w);
    const store = join(setup.dir, "tokens.json");
    const auth = await authorize(setup, ["--token-store", store]);
    expect(auth.code, auth.stderr).toBe(0);
    expect(JSON.parse(readFileSync(store, "utf8"))).toMatchObject({ grants: [{ credential: "suppliers", client_auth_method: "client_secret_post" }] });
    // The environment names the client and its secret only; the method comes from the store.
    const env = { SUPPLIERS_CLIENT_ID: auth.vars.SUPPLIERS_CLIENT_ID!, SUPPLIERS_CLIENT_SECRET: auth.vars.SUPPLIERS_CLIENT_SECRET! };
    const first = await serve(setup, env, ["--token-store", store]);
    await runLookups(first, 1);
    await first.close();
    // After a restart, the rotated token and the method are both read from the store.
    const second = await serve(setup, env, ["--token-store", store]);
    await runLookups(second, 1);
    expect(refreshes(w).map((r) => [r.basic, r.secretInBody, r.status])).toEqual([
      [false, true, 200],
      [false, true, 200],
    ]);
    expect(JSON.parse(readFileSync(store, "utf8"))).toMatchObject({ grants: [{ client_auth_method: "client_secret_post" }] });
  });

  it("passes the server's error and error_description through when it requires the registered redirect port, and works with --redirect-port", async () => {
    const port = await freePort();
    const secret = "a-pre-registered-secret-of-enough-length";
    const client = { client_id: "stepgate-fixed-port", client_secret: secret, token_endpoint_auth_method: "client_secret_post", redirect_uris: [`http://127.0.0.1:${port}/callback`], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
    const w = await world_({ refresh: true, listBasic: true, clients: [client] });
    const setup = stepfile(w);
    const env = { SUPPLIERS_CLIENT_SECRET: secret };

    // The demo provider compares redirect URIs exactly, port included, and redirects back with its reason.
    const refused = await authorize(setup, ["--client-id", "stepgate-fixed-port", "--client-auth-method", "client_secret_post"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n").at(-1)).toBe('AuthorizationFailed: authorization failed: the authorization server redirected back with an error: the server answered "invalid_request": "Unregistered redirect_uri"');

    // A port something else holds is said in one line, before any browser step.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    const busy = await authorize(setup, ["--client-id", "stepgate-fixed-port", "--client-auth-method", "client_secret_post", "--redirect-port", String(port)], env);
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(busy.code).toBe(1);
    expect(busy.url).toBeUndefined();
    expect(busy.stderr.trim()).toBe(`AuthorizationFailed: authorization failed: cannot listen for the redirect on 127.0.0.1:${port} (--redirect-port): EADDRINUSE`);

    const auth = await authorize(setup, ["--client-id", "stepgate-fixed-port", "--client-auth-method", "client_secret_post", "--redirect-port", String(port)], env);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.url!.searchParams.get("redirect_uri")).toBe(`http://127.0.0.1:${port}/callback`);
    expect(auth.vars).toMatchObject({ SUPPLIERS_CLIENT_ID: "stepgate-fixed-port", SUPPLIERS_CLIENT_AUTH_METHOD: "client_secret_post" });
    // The secret came from the environment, so it is not printed back.
    expectNone([auth.stdout, auth.stderr, refused.stdout, refused.stderr].join("\n"), [secret]);
    const s = await serve(setup, { ...auth.vars, ...env });
    await runLookups(s, 1);
    expect(refreshes(w).map((r) => [r.basic, r.status])).toEqual([[false, 200]]);
  });

  it("without a refresh token, offers the access token as SUPPLIERS_API_KEY with its expiry, and a run uses it as it is", async () => {
    // The demo provider as shipped: no refresh tokens.
    const w = await world_();
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(Object.keys(auth.vars)).toEqual(["SUPPLIERS_API_KEY"]);
    expect(w.secrets()).toContain(auth.vars.SUPPLIERS_API_KEY);
    expect(auth.stderr).toMatch(/issued no refresh token, so this access token will not be refreshed: it expires at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 60 minutes\); after that, run --auth again\./);
    // The server does not list offline_access, so it is not named.
    expect(auth.stderr).not.toContain("offline_access");
    expectNone(auth.stderr, w.secrets());

    const tokenRequests = w.tokenRequests.length;
    const s = await serve(setup, auth.vars);
    const replies = await runLookups(s, 2);
    // Sent as it is: no token request at run time.
    expect(w.tokenRequests).toHaveLength(tokenRequests);
    expect(w.mcpReceived.filter((r) => r.method === "POST" && r.authorization).length).toBeGreaterThanOrEqual(3);
    expectNone([JSON.stringify(replies), s.stderr(), setup.ledger()].join("\n"), w.secrets());
  });

  it("without a refresh token and with --token-store, keeps the access token and its expiry in the store, where runs find it until it expires", async () => {
    const w = await world_();
    const setup = stepfile(w);
    const store = join(setup.dir, "tokens.json");
    const auth = await authorize(setup, ["--token-store", store]);
    expect(auth.code, auth.stderr).toBe(0);
    // Nothing secret on stdout: the URL only.
    expect(auth.vars).toEqual({});
    expect(auth.stderr).toContain(`The access token is in ${store}; serve with --token-store ${store} (and no SUPPLIERS_API_KEY set) to use it.`);
    const kept = JSON.parse(readFileSync(store, "utf8")) as { access_tokens: { credential: string; token_url: string; access_token: string; expires_at: string }[] };
    expect(kept.access_tokens).toEqual([{ credential: "suppliers", token_url: w.tokenEndpoint, access_token: expect.any(String), expires_at: expect.stringMatching(/Z$/) }]);
    expect(Date.parse(kept.access_tokens[0]!.expires_at) - Date.now()).toBeGreaterThan(3_500_000);
    expectNone(auth.stdout + auth.stderr, w.secrets());

    const s = await serve(setup, {}, ["--token-store", store]);
    await runLookups(s, 1);
    expectNone([s.stderr(), setup.ledger()].join("\n"), w.secrets());
    await s.close();
    served = undefined;

    // Once it has expired, preflight says so instead of sending it.
    kept.access_tokens[0]!.expires_at = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(store, JSON.stringify(kept));
    const sent = w.mcpReceived.filter((r) => r.authorization).length;
    const later = await serve(setup, {}, ["--token-store", store]);
    const started = await startSuppliers(later);
    expect(structured(started)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(started)).toContain(`credential suppliers: the access token stepgate --auth kept in the token store for it expired at ${kept.access_tokens[0]!.expires_at} and is not refreshed; run stepgate --auth again`);
    // The expired token was never sent.
    expect(w.mcpReceived.filter((r) => r.authorization)).toHaveLength(sent);
    expectNone([text(started), later.stderr(), setup.ledger()].join("\n"), w.secrets());
  });

  it("times out with a clear message when the browser lands on the server's error page instead of coming back", async () => {
    const w = await world_();
    const setup = stepfile(w);
    const auth = await authorize(setup, ["--client-id", "nobody-registered-this", "--auth-wait-ms", "2000"]);
    expect(auth.code).toBe(1);
    // The SDK answers an unknown client with its error page (400), not a redirect.
    expect(auth.landed?.status).toBe(400);
    const redirect = auth.url!.searchParams.get("redirect_uri");
    expect(auth.stderr.trim().split("\n").at(-1)).toBe(
      `AuthorizationFailed: authorization failed: no redirect arrived at ${redirect} within 2 s. If the browser shows an error page from the authorization server instead, it refused the request before asking anyone: read its reason there. An unknown client or an unregistered redirect URI are the usual causes: check --client-id, or --redirect-port <n> when the client was registered with a redirect URI that has a port`,
    );
  });
});
