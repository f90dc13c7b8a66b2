// `stepgate --auth`: the authorization code flow with PKCE for one oauth2
// credential of an MCP tool, from a terminal. Discovery goes through the
// same metadata and token_url check as preflight; the person's browser
// carries the authorization request; every request Stepgate itself makes
// goes through egress.
import * as oauth from "oauth4webapi";
import { AuthorizationFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { readAuthorizationMetadata, tokenEndpointMismatch } from "./discover.js";
import { clientAuthentication, clientAuthMethod } from "./grant.js";
import { viaEgress } from "./http.js";
import { listenForRedirect } from "./redirect-listener.js";
import { refusalOf, serverWords } from "./server-words.js";
import type { SecretMethod } from "./variables.js";

export interface AuthorizeRequest {
  credential: string;
  mcpUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  /** A client registered beforehand; without it, dynamic registration is required. */
  clientId?: string;
  /** That client's secret, for a confidential client (from <NAME>_CLIENT_SECRET). */
  clientSecret?: string;
  /** How that client was registered to authenticate (--client-auth-method); else from the server's metadata. */
  clientAuthMethod?: SecretMethod;
  /** The loopback port of the redirect URI, for servers that require the registered one exactly (--redirect-port); else any free port. */
  redirectPort?: number;
  policy: EgressPolicy;
  /** How long to wait for the browser to come back. */
  waitMs: number;
  /** Shows the person the URL to open and where the redirect will land. */
  showAuthorizationUrl(url: string, redirectUri: string): void;
}

export interface Authorized {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** How the client authenticated at the token endpoint, when it has a secret: every refresh must do the same. */
  clientAuthMethod?: SecretMethod;
  /** Absent when the server issued none (RFC 6749 section 5.1 makes it optional). */
  refreshToken?: string;
  accessToken: string;
  /** The access token's lifetime in seconds, when the server said. */
  expiresIn?: number;
  /** Without a refresh token: a scope the server lists that may bring one (offline_access), when it was not asked for. */
  refreshScope?: string;
}

export async function authorize(request: AuthorizeRequest): Promise<Authorized> {
  const server = await authorizationServer(request);
  const redirectHint = `http://127.0.0.1${request.redirectPort !== undefined ? `:${request.redirectPort}` : ""}/callback`;
  if (request.clientId === undefined && server.registration_endpoint === undefined) {
    throw new AuthorizationFailed(`${server.issuer} offers no dynamic client registration; pass --client-id with a client registered there for redirect URI ${redirectHint}`);
  }
  const listener = await listenForRedirect(request.waitMs, request.redirectPort);
  try {
    const client: oauth.Client =
      request.clientId !== undefined
        ? { client_id: request.clientId, ...(request.clientSecret !== undefined ? { client_secret: request.clientSecret } : {}), ...(request.clientAuthMethod !== undefined ? { token_endpoint_auth_method: request.clientAuthMethod } : {}) }
        : await register(server, listener.redirectUri, request);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const scopes = requestedScopes(server, request.scopes);
    const url = new URL(server.authorization_endpoint!);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", listener.redirectUri);
    if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "));
    // OpenID Connect issues a refresh token for offline_access only after the person consents to it.
    if (scopes.includes("offline_access")) url.searchParams.set("prompt", "consent");
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    // RFC 8707, as the MCP authorization spec asks: the token is for this server.
    url.searchParams.set("resource", request.mcpUrl);
    request.showAuthorizationUrl(url.href, listener.redirectUri);

    const redirect = await listener.received;
    const secret = typeof client.client_secret === "string" ? client.client_secret : undefined;
    const method = clientAuthMethod(server, secret, typeof client.token_endpoint_auth_method === "string" ? client.token_endpoint_auth_method : undefined);
    const params = checkRedirect(server, client, redirect, state, [secret, verifier]);
    const tokens = await exchange(server, client, params, listener.redirectUri, verifier, request, [secret, verifier, params.get("code") ?? undefined]);
    const refreshScope = tokens.refresh_token ? undefined : missingRefreshScope(server, scopes);
    return {
      issuer: server.issuer,
      clientId: client.client_id,
      ...(secret !== undefined ? { clientSecret: secret } : {}),
      ...(method !== undefined ? { clientAuthMethod: method } : {}),
      ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
      accessToken: tokens.access_token,
      ...(typeof tokens.expires_in === "number" ? { expiresIn: tokens.expires_in } : {}),
      ...(refreshScope !== undefined ? { refreshScope } : {}),
    };
  } finally {
    await listener.close();
  }
}

/** The server's RFC 8414 metadata, after the same token_url check preflight makes. */
async function authorizationServer(request: AuthorizeRequest): Promise<oauth.AuthorizationServer> {
  const metadata = await readAuthorizationMetadata(request.mcpUrl, request.tokenUrl, request.policy);
  const mismatch = tokenEndpointMismatch(metadata, request.tokenUrl);
  if (mismatch) throw new AuthorizationFailed(`${request.mcpUrl}: ${mismatch}`);
  const server = metadata.server!;
  if (!server.authorization_endpoint) throw new AuthorizationFailed(`${server.issuer} advertises no authorization endpoint`);
  // The MCP authorization spec: no advertised S256, no authorization.
  if (!server.code_challenge_methods_supported?.includes("S256")) throw new AuthorizationFailed(`${server.issuer} does not advertise PKCE with S256`);
  return server;
}

/**
 * OpenID Connect servers issue refresh tokens only for `offline_access`:
 * when the stepfile asks for `openid` and the server lists that scope, it
 * is added (with prompt=consent, which OIDC requires for it).
 */
export function requestedScopes(server: oauth.AuthorizationServer, scopes: readonly string[]): string[] {
  const offline = scopes.includes("openid") && !scopes.includes("offline_access") && server.scopes_supported?.includes("offline_access");
  return offline ? [...scopes, "offline_access"] : [...scopes];
}

/** offline_access, when no refresh token came back, the server lists that scope and it was not asked for; named only then. */
function missingRefreshScope(server: oauth.AuthorizationServer, scopes: readonly string[]): string | undefined {
  return !scopes.includes("offline_access") && server.scopes_supported?.includes("offline_access") ? "offline_access" : undefined;
}

/**
 * RFC 7591, as a native application (RFC 8252) with its loopback redirect:
 * a public client, though a server may still hand back a secret. `scope` is
 * optional metadata that some servers refuse (invalid_client_metadata) for
 * scopes they grant per resource, so a refusal is retried once without it.
 */
async function register(server: oauth.AuthorizationServer, redirectUri: string, request: AuthorizeRequest): Promise<oauth.Client> {
  const endpoint = new URL(server.registration_endpoint!);
  const metadata = { client_name: "Stepgate", application_type: "native", redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  const attempt = async (withScope: boolean) => {
    const response = await oauth.dynamicClientRegistrationRequest(
      server,
      { ...metadata, ...(withScope ? { scope: requestedScopes(server, request.scopes).join(" ") } : {}) },
      viaEgress(request.policy, [new URL(request.tokenUrl).host], `client registration at ${endpoint.host}`, endpoint),
    );
    return oauth.processDynamicClientRegistrationResponse(response);
  };
  try {
    if (request.scopes.length === 0) return await attempt(false);
    try {
      return await attempt(true);
    } catch (error) {
      if (!(error instanceof oauth.ResponseBodyError && error.error === "invalid_client_metadata")) throw error;
      return await attempt(false);
    }
  } catch (error) {
    throw failure(`client registration at ${endpoint.href} failed`, error, []);
  }
}

/** state, and RFC 9207's iss: a response from another server, or for another request, is refused. */
function checkRedirect(server: oauth.AuthorizationServer, client: oauth.Client, redirect: URL, state: string, secrets: ReadonlyArray<string | undefined>): URLSearchParams {
  try {
    return oauth.validateAuthResponse(server, client, redirect.searchParams, state);
  } catch (error) {
    const what = error instanceof oauth.AuthorizationResponseError ? "the authorization server redirected back with an error" : "the authorization response was refused";
    throw failure(what, error, secrets);
  }
}

async function exchange(server: oauth.AuthorizationServer, client: oauth.Client, params: URLSearchParams, redirectUri: string, verifier: string, request: AuthorizeRequest, secrets: ReadonlyArray<string | undefined>): Promise<oauth.TokenEndpointResponse> {
  const endpoint = new URL(server.token_endpoint!);
  try {
    const options = { ...viaEgress(request.policy, [endpoint.host], `code exchange at ${endpoint.host}`, endpoint), additionalParameters: { resource: request.mcpUrl } };
    const secret = typeof client.client_secret === "string" ? client.client_secret : undefined;
    const auth = clientAuthentication(server, secret, typeof client.token_endpoint_auth_method === "string" ? client.token_endpoint_auth_method : undefined);
    const response = await oauth.authorizationCodeGrantRequest(server, client, auth, params, redirectUri, verifier, options);
    return await oauth.processAuthorizationCodeResponse(server, client, response);
  } catch (error) {
    throw failure("the code exchange failed", error, secrets);
  }
}

/**
 * One line: the server's error and error_description (quoted, capped, with
 * the request's secrets masked), or oauth4webapi's check. Never the rest of
 * a response body, which could echo anything.
 */
function failure(what: string, error: unknown, secrets: ReadonlyArray<string | undefined>): AuthorizationFailed {
  if (error instanceof AuthorizationFailed) return error;
  const refusal = refusalOf(error);
  if (refusal) return new AuthorizationFailed(`${what}: ${serverWords(refusal, secrets)}`);
  return new AuthorizationFailed(`${what}: ${(error as Error).message}`);
}
