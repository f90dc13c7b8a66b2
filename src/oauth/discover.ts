// An MCP server's authorization metadata: its RFC 9728 protected resource
// metadata (on the server's own host) names its authorization server, whose
// metadata advertises the token endpoint. The second read is the seed's
// exception to the host check, so it goes only to the host of the
// credential's `token_url` and never carries a credential.
//
// Both reads follow the MCP authorization spec's discovery order:
// - resource metadata at the path-inserted URL, then at the root URL;
// - authorization server metadata at RFC 8414 with path insertion, OpenID
//   Connect discovery with path insertion, then OpenID Connect discovery
//   appended to the issuer's path (where most OIDC servers mounted under a
//   path answer).
import * as oauth from "oauth4webapi";
import { AuthorizationFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { viaEgress } from "./http.js";
import { quote } from "../quote.js";

export interface AuthorizationMetadata {
  /** The MCP server's URL, as the resource metadata confirmed it. */
  resource: string;
  issuer: string;
  /** Undefined when the issuer is not on token_url's host: Stepgate does not go there. */
  server?: oauth.AuthorizationServer;
}

export async function readAuthorizationMetadata(mcpUrl: string, tokenUrl: string, policy: EgressPolicy): Promise<AuthorizationMetadata> {
  const resource = await step(`could not read the protected resource metadata of ${mcpUrl}`, () => readResourceMetadata(new URL(mcpUrl), policy));
  const issuer = resource.authorization_servers?.[0];
  if (!issuer) throw new AuthorizationFailed(`the protected resource metadata of ${mcpUrl} names no authorization server`, { resource: mcpUrl });
  const issuerUrl = await step(`the authorization server ${quote(issuer)} of ${mcpUrl} is not a URL`, async () => new URL(issuer));
  if (issuerUrl.host !== new URL(tokenUrl).host) return { resource: mcpUrl, issuer };
  const server = await step(`could not read the metadata of authorization server ${issuer}`, () => readServerMetadata(issuerUrl, policy));
  return { resource: mcpUrl, issuer, server };
}

/** The MCP spec's order for RFC 9728: the path-inserted URL, then the root one when that is absent. */
async function readResourceMetadata(resourceUrl: URL, policy: EgressPolicy): Promise<oauth.ResourceServer> {
  const options = viaEgress(policy, [resourceUrl.host], `resource metadata of ${resourceUrl.host}`, resourceUrl);
  const atPath = await oauth.resourceDiscoveryRequest(resourceUrl, options);
  if (atPath.ok || resourceUrl.pathname === "/") return oauth.processResourceDiscoveryResponse(resourceUrl, atPath);
  await atPath.body?.cancel();
  const root = new URL("/", resourceUrl);
  const atRoot = await oauth.resourceDiscoveryRequest(root, options);
  // At the root, the document may name the server's origin or the MCP URL itself; anything else describes another resource.
  const named = atRoot.ok ? ((await atRoot.clone().json().catch(() => ({}))) as { resource?: unknown }).resource : undefined;
  const expected = typeof named === "string" && URL.canParse(named) && [resourceUrl.href, root.href].includes(new URL(named).href) ? new URL(named) : resourceUrl;
  const metadata = await oauth.processResourceDiscoveryResponse(expected, atRoot);
  return metadata;
}

/** Where an issuer's metadata may be, in the order tried. Exported for tests and docs. */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
  const urls = [`/.well-known/oauth-authorization-server${path}`, `/.well-known/openid-configuration${path}`, `${path}/.well-known/openid-configuration`].map((p) => new URL(p, issuer.origin));
  return urls.filter((url, i) => urls.findIndex((other) => other.href === url.href) === i);
}

/**
 * The first candidate that answers 200 is the metadata, and its `issuer`
 * must be the one the resource named (RFC 8414 section 3.3). Any other
 * status moves on to the next candidate.
 */
export async function readServerMetadata(issuerUrl: URL, policy: EgressPolicy): Promise<oauth.AuthorizationServer> {
  const fetchVia = viaEgress(policy, [issuerUrl.host], `authorization server metadata of ${issuerUrl.host}`, issuerUrl)[oauth.customFetch];
  const tried: string[] = [];
  for (const url of serverMetadataUrls(issuerUrl)) {
    const response = await fetchVia(url.href, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" });
    if (!response.ok) {
      await response.body?.cancel();
      tried.push(`${url.pathname} answered ${response.status}`);
      continue;
    }
    return oauth.processDiscoveryResponse(issuerUrl, response);
  }
  throw new Error(`no metadata found (${tried.join(", ")})`);
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
