// An MCP server's authorization metadata: its RFC 9728 protected resource
// metadata (on the server's own host) names its authorization server, whose
// metadata advertises the token endpoint. The second read is the seed's
// exception to the host check, so it goes only to the host of the
// credential's `token_url` and never carries a credential.
//
// Both reads follow the MCP authorization spec's discovery order:
// - resource metadata at the URL the server's 401 names (WWW-Authenticate's
//   resource_metadata), then at the path-inserted URL, then at the root URL;
// - authorization server metadata at RFC 8414 with path insertion, OpenID
//   Connect discovery with path insertion, then OpenID Connect discovery
//   appended to the issuer's path (where most OIDC servers mounted under a
//   path answer).
import * as oauth from "oauth4webapi";
import { AuthorizationFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { viaEgress } from "./http.js";
import { capText, quote } from "../quote.js";

export interface AuthorizationMetadata {
  /** The MCP server's URL, as the resource metadata confirmed it. */
  resource: string;
  issuer: string;
  /** Undefined when the issuer is not on token_url's host: Stepgate does not go there. */
  server?: oauth.AuthorizationServer;
}

export async function readAuthorizationMetadata(mcpUrl: string, tokenUrl: string, policy: EgressPolicy): Promise<AuthorizationMetadata> {
  const tried: string[] = [];
  const resource = await step(`could not read the protected resource metadata of ${mcpUrl}`, () => readResourceMetadata(new URL(mcpUrl), policy, tried), tried);
  const issuer = resource.authorization_servers?.[0];
  if (!issuer) throw new AuthorizationFailed(`the protected resource metadata of ${mcpUrl} names no authorization server`, { resource: mcpUrl });
  const issuerUrl = await step(`the authorization server ${quote(issuer)} of ${mcpUrl} is not a URL`, async () => new URL(issuer));
  if (issuerUrl.host !== new URL(tokenUrl).host) return { resource: mcpUrl, issuer };
  const serverTried: string[] = [];
  const server = await step(`could not read the metadata of authorization server ${issuer}`, () => readServerMetadata(issuerUrl, policy, serverTried), serverTried);
  return { resource: mcpUrl, issuer, server };
}

/** A JSON-RPC ping: what an unauthenticated MCP request looks like, and harmless (no session, no effect) where it is served. */
const PROBE = JSON.stringify({ jsonrpc: "2.0", id: "stepgate-discovery", method: "ping" });

/**
 * RFC 9728 as MCP 2025-11-25 orders it: the `resource_metadata` URL of the
 * 401 an unauthenticated request gets (the server's own word, which a client
 * MUST use when present), then the path-inserted well-known URL, then the
 * root one. Each URL and its answer is added to `tried`, so a failure can
 * name them all.
 */
async function readResourceMetadata(resourceUrl: URL, policy: EgressPolicy, tried: string[]): Promise<oauth.ResourceServer> {
  const fetchVia = viaEgress(policy, [resourceUrl.host], `resource metadata of ${resourceUrl.host}`, resourceUrl)[oauth.customFetch];
  const probe = await fetchVia(resourceUrl.href, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json" }, body: PROBE, redirect: "manual" });
  await probe.body?.cancel();
  // The MCP client's challenge parser, loaded here: a server started with --token-store loads this module at start, before any run needs the client.
  const named = probe.status === 401 ? (await import("@modelcontextprotocol/client")).extractWWWAuthenticateParams(probe).resourceMetadataUrl : undefined;
  // The server's URL is its text: capped wherever it is shown.
  tried.push(`POST ${resourceUrl.href} answered ${probe.status}${named ? ` naming resource_metadata ${capText(named.href)}` : ""}`);
  const root = new URL("/", resourceUrl);
  const pathInserted = new URL(`/.well-known/oauth-protected-resource${resourceUrl.pathname === "/" ? "" : resourceUrl.pathname}`, resourceUrl.origin);
  const candidates = [...(named ? [named] : []), pathInserted, root.pathname === resourceUrl.pathname ? undefined : new URL("/.well-known/oauth-protected-resource", resourceUrl.origin)];
  for (const url of candidates) {
    if (url === undefined || tried.some((t) => t.startsWith(`${capText(url.href)} `))) continue;
    if (url.host !== resourceUrl.host) {
      tried.push(`${capText(url.href)} not read: Stepgate reads a server's metadata only on its own host`);
      continue;
    }
    const response = await fetchVia(url.href, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" });
    if (!response.ok) {
      await response.body?.cancel();
      tried.push(`${capText(url.href)} answered ${response.status}`);
      continue;
    }
    // The document may name the MCP URL itself or, outside the path-inserted URL, the server's origin; anything else describes another resource.
    const document = url.href === pathInserted.href ? undefined : ((await response.clone().json().catch(() => ({}))) as { resource?: unknown }).resource;
    const expected = typeof document === "string" && URL.canParse(document) && [resourceUrl.href, root.href].includes(new URL(document).href) ? new URL(document) : resourceUrl;
    try {
      return await oauth.processResourceDiscoveryResponse(expected, response);
    } catch (error) {
      tried.push(`${capText(url.href)} answered ${response.status} but ${(error as Error).message}`);
      throw error;
    }
  }
  throw new Error("no metadata found");
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
export async function readServerMetadata(issuerUrl: URL, policy: EgressPolicy, tried: string[] = []): Promise<oauth.AuthorizationServer> {
  const fetchVia = viaEgress(policy, [issuerUrl.host], `authorization server metadata of ${issuerUrl.host}`, issuerUrl)[oauth.customFetch];
  for (const url of serverMetadataUrls(issuerUrl)) {
    const response = await fetchVia(url.href, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" });
    if (!response.ok) {
      await response.body?.cancel();
      tried.push(`${url.href} answered ${response.status}`);
      continue;
    }
    try {
      return await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      tried.push(`${url.href} answered ${response.status} but ${(error as Error).message}`);
      throw error;
    }
  }
  throw new Error("no metadata found");
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
async function step<T>(what: string, work: () => Promise<T>, tried: readonly string[] = []): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthorizationFailed) throw error;
    const message = (error as Error).message;
    // The last URL tried already carries the reason it failed.
    const reason = tried.some((t) => t.endsWith(message)) ? "" : `: ${message}`;
    throw new AuthorizationFailed(`${what}${reason}${tried.length > 0 ? `; tried ${tried.join(", ")}` : ""}`);
  }
}
