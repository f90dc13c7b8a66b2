// `stepgate --auth`: the authorization code flow with PKCE for one oauth2
// credential of an MCP tool, from a terminal. Discovery goes through the
// same metadata and token_url check as preflight; the person's browser
// carries the authorization request; every request Stepgate itself makes
// goes through egress.
import * as oauth from "oauth4webapi";
import { AuthorizationFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { readAuthorizationMetadata, tokenEndpointMismatch } from "./discover.js";
import { viaEgress } from "./http.js";
import { listenForRedirect } from "./redirect-listener.js";

export interface AuthorizeRequest {
  credential: string;
  mcpUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  /** A client registered beforehand; without it, dynamic registration is required. */
  clientId?: string;
  policy: EgressPolicy;
  /** How long to wait for the browser to come back. */
  waitMs: number;
  /** Shows the person the URL to open and where the redirect will land. */
  showAuthorizationUrl(url: string, redirectUri: string): void;
}

export interface Authorized {
  refreshToken: string;
  clientId: string;
  clientSecret?: string;
}

export async function authorize(request: AuthorizeRequest): Promise<Authorized> {
  const server = await authorizationServer(request);
  if (request.clientId === undefined && server.registration_endpoint === undefined) {
    throw new AuthorizationFailed(`${server.issuer} offers no dynamic client registration; pass --client-id with a client registered there for redirect URI http://127.0.0.1/callback`);
  }
  const listener = await listenForRedirect(request.waitMs);
  try {
    const client = request.clientId !== undefined ? { client_id: request.clientId } : await register(server, listener.redirectUri, request);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(server.authorization_endpoint!);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", listener.redirectUri);
    if (request.scopes.length > 0) url.searchParams.set("scope", request.scopes.join(" "));
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    // RFC 8707, as the MCP authorization spec asks: the token is for this server.
    url.searchParams.set("resource", request.mcpUrl);
    request.showAuthorizationUrl(url.href, listener.redirectUri);

    const redirect = await listener.received;
    const params = checkRedirect(server, client, redirect, state);
    const tokens = await exchange(server, client, params, listener.redirectUri, verifier, request);
    if (!tokens.refresh_token) throw new AuthorizationFailed(`${server.issuer} issued no refresh token, so Stepgate could not refresh the access token later`);
    return { refreshToken: tokens.refresh_token, clientId: client.client_id, ...(typeof client.client_secret === "string" ? { clientSecret: client.client_secret } : {}) };
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

/** RFC 7591: a public client, as RFC 8252 says a native app is; a server may still hand back a secret. */
async function register(server: oauth.AuthorizationServer, redirectUri: string, request: AuthorizeRequest): Promise<oauth.Client> {
  const endpoint = new URL(server.registration_endpoint!);
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      server,
      { client_name: "Stepgate", redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", ...(request.scopes.length > 0 ? { scope: request.scopes.join(" ") } : {}) },
      viaEgress(request.policy, [new URL(request.tokenUrl).host], `client registration at ${endpoint.host}`, endpoint),
    );
    return await oauth.processDynamicClientRegistrationResponse(response);
  } catch (error) {
    throw failure(`client registration at ${endpoint.href} failed`, error);
  }
}

/** state, and RFC 9207's iss: a response from another server, or for another request, is refused. */
function checkRedirect(server: oauth.AuthorizationServer, client: oauth.Client, redirect: URL, state: string): URLSearchParams {
  try {
    return oauth.validateAuthResponse(server, client, redirect.searchParams, state);
  } catch (error) {
    throw failure("the authorization response was refused", error);
  }
}

async function exchange(server: oauth.AuthorizationServer, client: oauth.Client, params: URLSearchParams, redirectUri: string, verifier: string, request: AuthorizeRequest): Promise<oauth.TokenEndpointResponse> {
  const endpoint = new URL(server.token_endpoint!);
  try {
    const options = { ...viaEgress(request.policy, [endpoint.host], `code exchange at ${endpoint.host}`, endpoint), additionalParameters: { resource: request.mcpUrl } };
    const response = await oauth.authorizationCodeGrantRequest(server, client, clientAuth(client), params, redirectUri, verifier, options);
    return await oauth.processAuthorizationCodeResponse(server, client, response);
  } catch (error) {
    throw failure("the code exchange failed", error);
  }
}

/** What registration gave: HTTP Basic for a secret unless the server chose the form body. */
function clientAuth(client: oauth.Client): oauth.ClientAuth {
  if (typeof client.client_secret !== "string") return oauth.None();
  return client.token_endpoint_auth_method === "client_secret_post" ? oauth.ClientSecretPost(client.client_secret) : oauth.ClientSecretBasic(client.client_secret);
}

/** One line, from error codes and oauth4webapi's checks only: no response body, which could echo a secret. */
function failure(what: string, error: unknown): AuthorizationFailed {
  if (error instanceof AuthorizationFailed) return error;
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) return new AuthorizationFailed(`${what}: the server answered ${error.error}`);
  return new AuthorizationFailed(`${what}: ${(error as Error).message}`);
}
