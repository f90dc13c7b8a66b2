// An MCP server's authorization metadata: its RFC 9728 protected resource
// metadata (on the server's own host) names its authorization server, whose
// RFC 8414 metadata advertises the token endpoint. The second read is the
// seed's exception to the host check, so it goes only to the host of the
// credential's `token_url` and never carries a credential.
import * as oauth from "oauth4webapi";
import { AuthorizationFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { viaEgress } from "./http.js";

export interface AuthorizationMetadata {
  /** The MCP server's URL, as the resource metadata confirmed it. */
  resource: string;
  issuer: string;
  /** Undefined when the issuer is not on token_url's host: Stepgate does not go there. */
  server?: oauth.AuthorizationServer;
}

export async function readAuthorizationMetadata(mcpUrl: string, tokenUrl: string, policy: EgressPolicy): Promise<AuthorizationMetadata> {
  const resourceUrl = new URL(mcpUrl);
  const resource = await step(`could not read the protected resource metadata of ${mcpUrl}`, async () => {
    const options = viaEgress(policy, [resourceUrl.host], `resource metadata of ${resourceUrl.host}`, resourceUrl);
    return oauth.processResourceDiscoveryResponse(resourceUrl, await oauth.resourceDiscoveryRequest(resourceUrl, options));
  });
  const issuer = resource.authorization_servers?.[0];
  if (!issuer) throw new AuthorizationFailed(`the protected resource metadata of ${mcpUrl} names no authorization server`, { resource: mcpUrl });
  const issuerUrl = await step(`the authorization server ${JSON.stringify(issuer)} of ${mcpUrl} is not a URL`, async () => new URL(issuer));
  if (issuerUrl.host !== new URL(tokenUrl).host) return { resource: mcpUrl, issuer };
  const server = await step(`could not read the metadata of authorization server ${issuer}`, async () => {
    const options = { ...viaEgress(policy, [issuerUrl.host], `authorization server metadata of ${issuerUrl.host}`, issuerUrl), algorithm: "oauth2" as const };
    return oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, options));
  });
  return { resource: mcpUrl, issuer, server };
}

/** Why the advertised token endpoint is not `token_url`, or undefined when it is. */
export function tokenEndpointMismatch(metadata: AuthorizationMetadata, tokenUrl: string): string | undefined {
  const expected = new URL(tokenUrl).href;
  if (!metadata.server) return `its authorization server ${metadata.issuer} is not on the host of token_url ${expected}`;
  const advertised = metadata.server.token_endpoint;
  if (advertised === undefined) return `its authorization server ${metadata.issuer} advertises no token endpoint`;
  if (new URL(advertised).href !== expected) return `its authorization server advertises the token endpoint ${advertised}, not token_url ${expected}`;
  return undefined;
}

/**
 * Runs one read; any failure becomes AuthorizationFailed with a value-free
 * reason (these requests carry no secret, and oauth4webapi's messages name
 * only what it checked). Egress errors, like EgressDenied for a redirect
 * off the allowed hosts, are folded in too: to the caller they all mean the
 * metadata could not be read.
 */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthorizationFailed) throw error;
    throw new AuthorizationFailed(`${what}: ${(error as Error).message}`);
  }
}
