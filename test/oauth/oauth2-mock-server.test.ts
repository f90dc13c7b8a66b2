// Interoperability with oauth2-mock-server (test/oauth/mock-server-world.ts)
// through the built CLI: a pre-registered public client (the mock offers no
// registration), JWT access tokens for the MCP server's URL, id_tokens on
// every refresh; and the server's own words when it refuses.
import { describe, expect, it } from "vitest";
import type { SpawnedStepgate } from "../support/stepgate.js";
import { type AuthResult, closeAfterEach, expectNone, runAuth, runLookups, serveSuppliers, startSuppliers, structured, text } from "./auth-driver.js";
import { writeSuppliersStepfile, type SuppliersStepfile } from "./setup.js";
import { approve, startMockWorld, type MockWorld, type MockWorldOptions } from "./mock-server-world.js";

let world: MockWorld | undefined;
let served: SpawnedStepgate | undefined;
closeAfterEach(
  () => [served, world],
  () => (served = world = undefined),
);

async function world_(options: MockWorldOptions = {}): Promise<MockWorld> {
  world = await startMockWorld(options);
  return world;
}

function stepfile(w: MockWorld): SuppliersStepfile {
  return writeSuppliersStepfile({ mcpHost: w.mcp.host, mcpUrl: w.mcpUrl, scopes: ["suppliers:read"], tokenUrl: w.tokenEndpoint });
}

const authorize = (setup: SuppliersStepfile): Promise<AuthResult> => runAuth(setup, approve, ["--client-id", "stepgate-public"]);

async function serve(setup: SuppliersStepfile, env: Record<string, string>): Promise<SpawnedStepgate> {
  served = await serveSuppliers(setup, env);
  return served;
}

const lastLine = (stderr: string) => stderr.trim().split("\n").at(-1);

describe("interoperability with oauth2-mock-server", { timeout: 180_000 }, () => {
  it("authorizes a pre-registered public client, then refreshes with the resource on every request and the id_token checked", async () => {
    const w = await world_();
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(Object.keys(auth.vars).sort()).toEqual(["SUPPLIERS_CLIENT_ID", "SUPPLIERS_REFRESH_TOKEN"]);
    const s = await serve(setup, auth.vars);
    const replies = await runLookups(s, 2);
    expect(w.tokenRequests.map((r) => [r.grant, r.resource, r.status])).toEqual([
      ["authorization_code", w.mcpUrl, 200],
      ["refresh_token", w.mcpUrl, 200],
    ]);
    expect(w.refusals).toEqual([]);
    expectNone([JSON.stringify(replies), s.stderr(), setup.ledger(), auth.stderr].join("\n"), w.secrets);
  });

  it("passes the server's error and error_description through when it redirects back with an error", async () => {
    const w = await world_({ authorizeError: { error: "access_denied", error_description: 'The person said "no" at the consent screen' } });
    const auth = await authorize(stepfile(w));
    expect(auth.code).toBe(1);
    expect(lastLine(auth.stderr)).toBe('AuthorizationFailed: authorization failed: the authorization server redirected back with an error: the server answered "access_denied": "The person said \\"no\\" at the consent screen"');
    expect(w.tokenRequests).toEqual([]);
  });

  it("passes a refused code exchange's words through, capped, with any secret of the request it echoes masked", async () => {
    const w = await world_({ tokenAnswer: (grant, form) => (grant === "authorization_code" ? { status: 400, body: { error: "invalid_grant", error_description: `code_verifier ${String(form.code_verifier)} does not match; ${"more words ".repeat(40)}` } } : undefined) });
    const auth = await authorize(stepfile(w));
    expect(auth.code).toBe(1);
    const line = lastLine(auth.stderr)!;
    expect(line).toMatch(/^AuthorizationFailed: authorization failed: the code exchange failed: the server answered "invalid_grant": "code_verifier \[redacted\] does not match; (more words )+[a-z ]*\.\.\."$/);
    // The description is cut at 200 characters.
    expect(line.slice(line.indexOf(': "code_verifier') + 3, line.lastIndexOf('..."'))).toHaveLength(200);
    expectNone(auth.stdout + auth.stderr, w.secrets);
  });

  it("passes a refused refresh's words through at preflight, with the refresh token it echoes masked", async () => {
    const w = await world_({ tokenAnswer: (grant, form) => (grant === "refresh_token" ? { status: 400, body: { error: "invalid_client", error_description: `no client may use ${String(form.refresh_token)} here` } } : undefined) });
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    const s = await serve(setup, auth.vars);
    const started = await startSuppliers(s);
    expect(structured(started)).toMatchObject({ state: "failed", error: "PreflightFailed" });
    expect(text(started)).toContain('the server answered "invalid_client": "no client may use [redacted] here"');
    expectNone([text(started), s.stderr(), setup.ledger()].join("\n"), w.secrets);
  });

  it("without a refresh token, prints the access token as SUPPLIERS_API_KEY, names no offline_access the server does not list, and a run uses it", async () => {
    const w = await world_({ tokenAnswer: () => "no-refresh-token" });
    const setup = stepfile(w);
    const auth = await authorize(setup);
    expect(auth.code, auth.stderr).toBe(0);
    expect(Object.keys(auth.vars)).toEqual(["SUPPLIERS_API_KEY"]);
    expect(auth.stderr).toContain("issued no refresh token, so this access token will not be refreshed: it expires at ");
    expect(auth.stderr).not.toContain("offline_access");
    expectNone(auth.stderr, w.secrets);
    const s = await serve(setup, { SUPPLIERS_API_KEY: auth.vars.SUPPLIERS_API_KEY! });
    await runLookups(s, 1);
    expect(w.tokenRequests.map((r) => r.grant)).toEqual(["authorization_code"]);
    expect(w.refusals).toEqual([]);
    expectNone([s.stderr(), setup.ledger()].join("\n"), w.secrets);
  });
});
