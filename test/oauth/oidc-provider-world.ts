// An interoperability world for the OAuth code: `oidc-provider` (the
// certified OpenID Connect / OAuth 2 server for Node) on 127.0.0.1, with its
// issuer at the root or under a path, protecting a small SDK-based MCP
// server that accepts only JWT access tokens whose audience is its own URL
// (RFC 8707 / RFC 9068) and serves RFC 9728 metadata naming the provider.
// The person at the consent screens is played by `consent()`, a scripted
// HTTP client with a cookie jar that drives oidc-provider's dev interactions.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import Provider, { errors, type Configuration } from "oidc-provider";
import { flattenHeaders, type ReceivedRequest } from "../support/api-fixture.js";
import { listenLoopback } from "../support/listen.js";
import { startMcpFixture, type McpFixture } from "../support/mcp-fixture.js";

export interface OidcWorldOptions {
  /** Mount the provider under this path ("/oidc"), so the issuer has a path. */
  issuerPath?: string;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtlS?: number;
  /** Clients registered beforehand, for --client-id. */
  clients?: Configuration["clients"];
  /** Serve the MCP server's RFC 9728 metadata only at the root well-known URL. */
  rootResourceMetadata?: boolean;
}

export interface OidcWorld {
  provider: Provider;
  issuer: string;
  origin: string;
  tokenEndpoint: string;
  mcp: McpFixture;
  mcpUrl: string;
  /** Every request the provider received (path and form fields, no bodies kept beyond the form). */
  received: ReceivedRequest[];
  /** Token endpoint requests: grant type, resource and what came back. */
  tokenRequests: { grant: string; resource: string | undefined; status: number }[];
  /** Access tokens the MCP server refused, with why. */
  refusals: string[];
  /** The MCP server answers the next request 401 whatever its token, as after a key rotation. */
  refuseNext(): void;
  close(): Promise<void>;
}

export const MCP_SCOPE = "mcp:tools";

export async function startOidcWorld(options: OidcWorldOptions = {}): Promise<OidcWorld> {
  const received: ReceivedRequest[] = [];
  const tokenRequests: OidcWorld["tokenRequests"] = [];
  const refusals: string[] = [];
  const prefix = options.issuerPath ?? "";
  // The provider's listener first: the issuer must be known before the MCP server names it.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const http = createServer((req, res) => {
    const path = req.url ?? "/";
    received.push({ method: req.method ?? "GET", path, headers: flattenHeaders(req), body: "" });
    if (!path.startsWith(`${prefix}/`)) {
      res.writeHead(404).end();
      return;
    }
    if (path.startsWith(`${prefix}/token`) && req.method === "POST") watchToken(req, res);
    // Mounted as a framework would mount it: the path below the mount point, the whole one in originalUrl.
    Object.assign(req, { originalUrl: path, url: path.slice(prefix.length) });
    handler(req, res);
  });
  const listening = await listenLoopback(http);
  const issuer = `${listening.origin}${prefix}`;

  // The provider's signing keys, fetched once it is up (the MCP server exists before it).
  const trusted: { jwks?: ReturnType<typeof createLocalJWKSet> } = {};
  let refuse = false;
  let mcpUrl = "";
  const mcp = await startMcpFixture({
    tools: [{ name: "lookup", description: "Look up a supplier.", inputSchema: { type: "object", properties: { query: { type: "string" } } }, text: "Supplier Acme: based in Leeds" }],
    token: async (token) => {
      if (refuse) {
        refuse = false;
        return false;
      }
      try {
        await jwtVerify(token, trusted.jwks!, { issuer, audience: mcpUrl, typ: "at+jwt" });
        return true;
      } catch (error) {
        refusals.push((error as Error).message);
        return false;
      }
    },
    authorizationServers: [issuer],
    ...(options.rootResourceMetadata ? { resourceMetadataAtRoot: true } : {}),
  });
  mcpUrl = `${mcp.origin}/mcp`;

  const ttl = options.accessTokenTtlS ?? 3600;
  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    // mcp:tools is a resource scope (getResourceServerInfo), not a provider scope: registering it as client metadata is refused.
    scopes: ["openid", "offline_access"],
    // The dev interactions: a login form and a consent form, no real accounts.
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A request that names no resource gets a token for userinfo, as this server's default does.
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => false,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== mcpUrl) throw new errors.InvalidTarget();
          return { scope: MCP_SCOPE, audience: mcpUrl, accessTokenFormat: "jwt", accessTokenTTL: ttl, jwt: { sign: { alg: "RS256" } } };
        },
      },
    },
    // A grant without openid is plain OAuth 2: refresh tokens without offline_access there; with openid, only for offline_access.
    issueRefreshToken: (_ctx, client, code) => client.grantTypeAllowed("refresh_token") && (code.scopes.has("offline_access") || !code.scopes.has("openid")),
    rotateRefreshToken: true,
    ttl: { AccessToken: ttl, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 86_400 },
    pkce: { required: () => true },
    // Consent screens always show (prompt=consent is honoured even with a remembered grant).
    loadExistingGrant: async (ctx) => (ctx.oidc.session?.accountId && ctx.oidc.result?.consent?.grantId ? ctx.oidc.provider.Grant.find(ctx.oidc.result.consent.grantId) : undefined),
  });
  provider.on("server_error", (_ctx, error) => refusals.push(`provider: ${error.message}`));
  const callback = provider.callback();
  handler = (req, res) => void callback(req, res);
  const keys = (await (await fetch(`${issuer}/jwks`)).json()) as JSONWebKeySet;
  trusted.jwks = createLocalJWKSet(keys);
  received.length = 0;

  function watchToken(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const entry = { grant: form.get("grant_type") ?? "", resource: form.get("resource") ?? undefined, status: 0 };
      tokenRequests.push(entry);
      res.on("finish", () => (entry.status = res.statusCode));
    });
  }

  return {
    provider,
    issuer,
    origin: listening.origin,
    tokenEndpoint: `${issuer}/token`,
    mcp,
    mcpUrl,
    received,
    tokenRequests,
    refusals,
    refuseNext: () => {
      refuse = true;
    },
    close: async () => {
      await Promise.all([listening.close(), mcp.close()]);
    },
  };
}

/**
 * The person: opens the authorization URL, signs in and approves on the dev
 * interaction screens, and follows the final redirect to its target (the
 * CLI's loopback listener). Returns the redirect URL the provider sent.
 */
export async function consent(authorizationUrl: string, account = "alice"): Promise<URL> {
  const jar = new Map<string, string>();
  const cookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, { redirect: "manual", headers: { cookie: cookies() } });
    keep(response);
    const location = response.headers.get("location");
    if (location) {
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== url.origin && next.pathname === "/callback") {
        const landed = await fetch(next);
        await landed.text();
        return next;
      }
      url = next;
      continue;
    }
    const page = await response.text();
    const interaction = /\/interaction\/([\w-]+)/.exec(url.pathname);
    if (response.status !== 200 || !interaction) throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${page.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    const form: Record<string, string> = prompt === "login" ? { prompt, login: account, password: "any" } : { prompt: prompt ?? "consent" };
    const submitted = await fetch(url, { method: "POST", redirect: "manual", headers: { cookie: cookies(), "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
    keep(submitted);
    await submitted.body?.cancel();
    const next = submitted.headers.get("location");
    if (!next) throw new Error(`the ${prompt} form answered ${submitted.status} without a redirect`);
    url = new URL(next, url);
  }
  throw new Error("the authorization did not come back to the client within 20 redirects");
}
