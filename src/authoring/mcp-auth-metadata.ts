// The token endpoint an MCP server's authorization server advertises: RFC
// 9728 protected resource metadata (named by the 401's WWW-Authenticate, or
// at its well-known URL), then that server's RFC 8414 metadata. An author
// copies it into the credential's token_url. Every URL is judged public
// before it is fetched, and no credential is sent.
import * as oauth from "oauth4webapi";
import type { AuthoringOptions } from "./options.js";
import { inspectFetch } from "./inspect-policy.js";
import { urlProblem, type PublicUrlCheck } from "./public-url.js";

export interface McpAuthorization {
  resource_metadata?: string;
  authorization_server?: string;
  token_endpoint?: string;
  scopes_supported?: string[];
  /** Why the metadata could not be read, when it could not. */
  problem?: string;
}

export async function discoverAuthorization(resource: URL, wwwAuthenticate: string | undefined, requests: AuthoringOptions["requests"], check: PublicUrlCheck): Promise<McpAuthorization> {
  const found: McpAuthorization = {};
  try {
    // Only the one parameter is needed; oauth4webapi does not export its challenge parser.
    const named = wwwAuthenticate ? /resource_metadata="([^"]+)"/i.exec(wwwAuthenticate)?.[1] : undefined;
    const metadataUrl = named ? new URL(named, resource) : undefined;
    const response = metadataUrl
      ? await fetchPublic(metadataUrl, requests, check, "protected resource metadata")
      : await oauth.resourceDiscoveryRequest(resource, options(resource, requests, "protected resource metadata"));
    found.resource_metadata = metadataUrl?.href ?? response.url;
    const metadata = await oauth.processResourceDiscoveryResponse(resource, response);
    const issuer = metadata.authorization_servers?.[0];
    if (!issuer) return { ...found, problem: "its protected resource metadata names no authorization server" };
    found.authorization_server = issuer;
    const problem = urlProblem(issuer, check);
    if (problem) return { ...found, problem: `its authorization server ${issuer} is not a public https URL (${problem})` };
    const issuerUrl = new URL(issuer);
    const as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, { algorithm: "oauth2", ...options(issuerUrl, requests, "authorization server metadata") }));
    if (as.token_endpoint) found.token_endpoint = as.token_endpoint;
    if (as.scopes_supported) found.scopes_supported = [...as.scopes_supported];
    if (!as.token_endpoint) found.problem = "its authorization server advertises no token_endpoint";
    return found;
  } catch (error) {
    return { ...found, problem: (error as Error).message };
  }
}

async function fetchPublic(url: URL, requests: AuthoringOptions["requests"], check: PublicUrlCheck, what: string): Promise<Response> {
  const problem = check(url);
  if (problem) throw new Error(`its ${what} URL ${url.href} is not a public https URL (${problem})`);
  return inspectFetch(requests, [url.host], what)(url, { headers: { accept: "application/json" } });
}

function options(url: URL, requests: AuthoringOptions["requests"], what: string) {
  const fetch = inspectFetch(requests, [url.host], what);
  return {
    [oauth.customFetch]: (input: string, init: RequestInit) => fetch(input, init),
    // Only reachable through the tests' public-URL seam: the real check refuses http.
    [oauth.allowInsecureRequests]: url.protocol === "http:",
  };
}
