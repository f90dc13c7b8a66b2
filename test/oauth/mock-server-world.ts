// An interoperability world around `oauth2-mock-server` (an OAuth 2 / OpenID
// Connect server for tests, with JWT access tokens and OpenID discovery at
// the root only, no dynamic registration): it protects a small SDK-based MCP
// server that accepts only its JWTs whose audience is the MCP server's URL.
// The mock approves every authorization request at once (no person), and
// its documented hooks shape what it answers:
// - beforeTokenSigning: the access token's `aud` is the request's RFC 8707
//   `resource` (the mock sets none itself), so a token request without it
//   gets a token the MCP server refuses;
// - beforeResponse and beforeAuthorizeRedirect: the `refuse` options below.
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { OAuth2Server, type MutableRedirectUri, type MutableResponse, type MutableToken, type TokenRequestIncomingMessage } from "oauth2-mock-server";
import { startMcpFixture, type McpFixture } from "../support/mcp-fixture.js";

export interface MockWorldOptions {
  /** Answer the token endpoint's response for this grant type with this (the request's form is given). */
  tokenAnswer?: (grant: string, form: Record<string, unknown>) => { status: number; body: Record<string, unknown> } | "no-refresh-token" | undefined;
  /** Redirect back from the authorization endpoint with these error parameters instead of a code. */
  authorizeError?: Record<string, string>;
}

export interface MockWorld {
  issuer: string;
  tokenEndpoint: string;
  mcp: McpFixture;
  mcpUrl: string;
  /** Token endpoint requests: grant type, resource, the form's secrets, and the status answered. */
  tokenRequests: { grant: string; resource: string | undefined; status: number }[];
  /** Every token, code and verifier this world saw or issued. */
  secrets: string[];
  /** Access tokens the MCP server refused, with why. */
  refusals: string[];
  close(): Promise<void>;
}

export async function startMockWorld(options: MockWorldOptions = {}): Promise<MockWorld> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const issuer = server.issuer.url!;
  const tokenRequests: MockWorld["tokenRequests"] = [];
  const secrets: string[] = [];
  const refusals: string[] = [];

  server.service.on("beforeTokenSigning", (token: MutableToken, req: TokenRequestIncomingMessage) => {
    const resource = (req.body as { resource?: unknown }).resource;
    // An id_token already has its audience (the client); an access token gets the resource.
    if (typeof resource === "string" && token.payload.aud === undefined) token.payload.aud = resource;
  });
  server.service.on("beforeResponse", (response: MutableResponse, req: TokenRequestIncomingMessage) => {
    const form = req.body as unknown as Record<string, unknown>;
    for (const key of ["code", "code_verifier", "refresh_token"]) if (typeof form[key] === "string") secrets.push(form[key]);
    const answer = options.tokenAnswer?.(req.body.grant_type, form);
    if (answer === "no-refresh-token" && typeof response.body === "object") delete response.body.refresh_token;
    else if (answer !== undefined && answer !== "no-refresh-token") {
      response.statusCode = answer.status;
      response.body = answer.body;
    }
    if (typeof response.body === "object") for (const key of ["access_token", "refresh_token", "id_token"]) if (typeof response.body[key] === "string") secrets.push(response.body[key]);
    tokenRequests.push({ grant: req.body.grant_type, resource: typeof form.resource === "string" ? form.resource : undefined, status: response.statusCode });
  });
  server.service.on("beforeAuthorizeRedirect", (redirect: MutableRedirectUri) => {
    if (!options.authorizeError) return;
    redirect.url.searchParams.delete("code");
    for (const [key, value] of Object.entries(options.authorizeError)) redirect.url.searchParams.set(key, value);
  });

  // Its published keys, as a resource server would read them.
  const jwks = createLocalJWKSet((await (await fetch(`${issuer}/jwks`)).json()) as JSONWebKeySet);
  let mcpUrl = "";
  const mcp = await startMcpFixture({
    tools: [{ name: "lookup", description: "Look up a supplier.", inputSchema: { type: "object", properties: { query: { type: "string" } } }, text: "Supplier Acme: based in Leeds" }],
    token: async (token) => {
      try {
        await jwtVerify(token, jwks, { issuer, audience: mcpUrl });
        return true;
      } catch (error) {
        refusals.push((error as Error).message);
        return false;
      }
    },
    authorizationServers: [issuer],
  });
  mcpUrl = `${mcp.origin}/mcp`;

  return {
    issuer,
    tokenEndpoint: `${issuer}/token`,
    mcp,
    mcpUrl,
    tokenRequests,
    secrets,
    refusals,
    close: async () => {
      await Promise.all([server.stop(), mcp.close()]);
    },
  };
}

/** The person's browser: the mock redirects at once; the CLI's callback is opened. */
export async function approve(authorizationUrl: string): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) throw new Error(`the mock answered ${response.status} without a redirect`);
  await (await fetch(location)).text();
}
