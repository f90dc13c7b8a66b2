// An interoperability world built from the TypeScript MCP SDK's own OAuth
// code (v1, @modelcontextprotocol/sdk): its demo in-memory provider behind
// its `mcpAuthRouter` as the authorization server, and an MCP server of the
// same SDK guarded by its `requireBearerAuth`, whose 401s carry
// `WWW-Authenticate: Bearer ..., resource_metadata="<url>"`. The resource
// metadata is served only at that URL (no well-known one), as servers that
// rely on the challenge do.
//
// The demo provider auto-approves (no sign-in screen) and issues no refresh
// token; `refresh: true` adds refresh tokens in a subclass, rotated at each
// use. `confidential: true` swaps in a clients store that registers every
// client as confidential with client_secret_post (RFC 7591 section 3.2.1
// lets a server replace requested metadata), and `listBasic: true` makes
// the metadata list client_secret_basic too, while the SDK's token endpoint
// still accepts the secret only in the form body: a server that lists both
// and enforces the registered method.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import express from "express";
import { DemoInMemoryAuthProvider, DemoInMemoryClientsStore } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import { createOAuthMetadata, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { metadataHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/metadata.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidClientMetadataError, InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listenLoopback } from "../support/listen.js";

export const SDK_SCOPE = "mcp:tools";

export interface SdkWorldOptions {
  /** Issue refresh tokens (rotated at each use); the demo provider as shipped issues none. */
  refresh?: boolean;
  /** Register every client as confidential, with client_secret_post. */
  confidential?: boolean;
  /** List client_secret_basic in the metadata beside client_secret_post (the SDK enforces post). */
  listBasic?: boolean;
  /** Refuse every registration with invalid_client_metadata and this description, as a server with a registration policy does. */
  refuseRegistration?: string;
  /** Clients registered beforehand (for --client-id). */
  clients?: OAuthClientInformationFull[];
  /** The path of the resource metadata the 401s name; `servedAt` another path serves it (default: the same). */
  metadataPath?: string;
  metadataServedAt?: string;
}

export interface TokenRequest {
  grant: string;
  /** Whether the client sent HTTP Basic credentials, or client_secret in the form body. */
  basic: boolean;
  secretInBody: boolean;
  resource: string | undefined;
  status: number;
}

export interface SdkWorld {
  issuer: string;
  tokenEndpoint: string;
  mcpUrl: string;
  mcpHost: string;
  /** Requests the MCP server received: method, path, and whether they carried a token. */
  mcpReceived: { method: string; path: string; authorization: boolean }[];
  /** Requests the authorization server received (method and path). */
  asReceived: { method: string; path: string }[];
  tokenRequests: TokenRequest[];
  /** Every secret this world issued or holds: registered client secrets, access and refresh tokens. */
  secrets(): string[];
  close(): Promise<void>;
}

/** The demo provider with refresh tokens added, and a record of every token it issued. */
class SdkProvider extends DemoInMemoryAuthProvider {
  readonly issued: string[] = [];
  private readonly refreshTokens = new Map<string, { clientId: string; scopes: string[]; resource?: URL }>();
  private readonly refreshed = new Map<string, AuthInfo>();

  constructor(
    private readonly withRefresh: boolean,
    clientsStore: DemoInMemoryClientsStore,
  ) {
    super();
    this.clientsStore = clientsStore;
  }

  override async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const tokens = await super.exchangeAuthorizationCode(client, code, verifier);
    this.issued.push(tokens.access_token);
    if (!this.withRefresh) return tokens;
    const info = await this.verifyAccessToken(tokens.access_token);
    return { ...tokens, refresh_token: this.newRefreshToken(client.client_id, info.scopes, info.resource ?? resource) };
  }

  override async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const grant = this.refreshTokens.get(refreshToken);
    if (!this.withRefresh || !grant || grant.clientId !== client.client_id) throw new InvalidGrantError("Invalid refresh token");
    this.refreshTokens.delete(refreshToken);
    const access = randomUUID();
    this.issued.push(access);
    const granted = resource ?? grant.resource;
    this.refreshed.set(access, { token: access, clientId: client.client_id, scopes: grant.scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600, ...(granted ? { resource: granted } : {}) });
    return { access_token: access, token_type: "bearer", expires_in: 3600, refresh_token: this.newRefreshToken(client.client_id, grant.scopes, granted) };
  }

  override async verifyAccessToken(token: string): Promise<AuthInfo> {
    return this.refreshed.get(token) ?? super.verifyAccessToken(token);
  }

  private newRefreshToken(clientId: string, scopes: string[], resource: URL | undefined): string {
    const token = randomUUID();
    this.issued.push(token);
    this.refreshTokens.set(token, { clientId, scopes, ...(resource ? { resource } : {}) });
    return token;
  }
}

/** Every client it registers is confidential, with client_secret_post, whatever was asked for. */
class ConfidentialClientsStore extends DemoInMemoryClientsStore {
  readonly secrets: string[] = [];
  override async registerClient(client: OAuthClientInformationFull) {
    const secret = randomBytes(32).toString("hex");
    this.secrets.push(secret);
    return super.registerClient({ ...client, token_endpoint_auth_method: "client_secret_post", client_secret: secret, client_secret_expires_at: 0 });
  }
}

/** Refuses every registration (pre-registered clients are added past it). */
class RefusingClientsStore extends DemoInMemoryClientsStore {
  constructor(private readonly reason: string) {
    super();
  }
  override async registerClient(client: OAuthClientInformationFull): Promise<OAuthClientInformationFull> {
    if (client.client_name === "Stepgate") throw new InvalidClientMetadataError(this.reason);
    return super.registerClient(client);
  }
}

export async function startSdkWorld(options: SdkWorldOptions = {}): Promise<SdkWorld> {
  const store = options.refuseRegistration !== undefined ? new RefusingClientsStore(options.refuseRegistration) : options.confidential ? new ConfidentialClientsStore() : new DemoInMemoryClientsStore();
  for (const client of options.clients ?? []) await store.registerClient(client);
  const provider = new SdkProvider(options.refresh ?? false, store);
  const asReceived: SdkWorld["asReceived"] = [];
  const tokenRequests: TokenRequest[] = [];

  // The authorization server: the SDK's router, behind a recorder.
  const as = express();
  const asHttp = createServer(as);
  const asListening = await listenLoopback(asHttp);
  const issuerUrl = new URL(`${asListening.origin}/`);
  as.use((req, _res, next) => {
    asReceived.push({ method: req.method, path: req.url });
    next();
  });
  as.post("/token", express.urlencoded({ extended: false }), (req, res, next) => {
    const form = req.body as Record<string, string | undefined>;
    const entry: TokenRequest = { grant: form.grant_type ?? "", basic: /^basic /i.test(req.headers.authorization ?? ""), secretInBody: form.client_secret !== undefined, resource: form.resource, status: 0 };
    tokenRequests.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));
    next();
  });
  const routerOptions = { provider, issuerUrl, scopesSupported: [SDK_SCOPE], authorizationOptions: { rateLimit: false as const }, tokenOptions: { rateLimit: false as const }, clientRegistrationOptions: { rateLimit: false as const } };
  if (options.listBasic) {
    const metadata = { ...createOAuthMetadata(routerOptions), token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic", "none"] };
    as.get("/.well-known/oauth-authorization-server", (_req, res) => void res.json(metadata));
  }
  as.use(mcpAuthRouter(routerOptions));

  // The MCP server: the SDK's bearer check (with resource_metadata in its challenges), then a stateless SDK server.
  const mcpReceived: SdkWorld["mcpReceived"] = [];
  const mcp = express();
  const mcpHttp = createServer(mcp);
  const mcpListening = await listenLoopback(mcpHttp);
  const mcpUrl = `${mcpListening.origin}/mcp`;
  const metadataPath = options.metadataPath ?? "/meta/suppliers-resource";
  mcp.use((req, _res, next) => {
    mcpReceived.push({ method: req.method, path: req.url, authorization: req.headers.authorization !== undefined });
    next();
  });
  mcp.use(options.metadataServedAt ?? metadataPath, metadataHandler({ resource: mcpUrl, authorization_servers: [issuerUrl.href], scopes_supported: [SDK_SCOPE], bearer_methods_supported: ["header"] }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: `${mcpListening.origin}${metadataPath}`, expectedResource: new URL(mcpUrl) });
  mcp.all("/mcp", bearer, express.json(), async (req, res) => {
    if (req.method !== "POST") return void res.status(405).set("allow", "POST").end();
    const server = new Server({ name: "sdk-demo-suppliers", version: "0.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "lookup", description: "Look up a supplier.", inputSchema: { type: "object", properties: { query: { type: "string" } } } }] }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: "Supplier Acme: based in Leeds" }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void Promise.all([transport.close(), server.close()]).catch(() => undefined));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  return {
    issuer: issuerUrl.href,
    tokenEndpoint: new URL("/token", issuerUrl).href,
    mcpUrl,
    mcpHost: mcpListening.host,
    mcpReceived,
    asReceived,
    tokenRequests,
    secrets: () => [...provider.issued, ...(store instanceof ConfidentialClientsStore ? store.secrets : []), ...(options.clients ?? []).flatMap((c) => (c.client_secret ? [c.client_secret] : []))],
    close: async () => {
      await Promise.all([asListening.close(), mcpListening.close()]);
    },
  };
}

/**
 * The person's browser: opens the authorization URL and follows redirects
 * (the demo approves at once) until the CLI's loopback callback, which it
 * opens. Returns the final URL reached and its status: an error page of the
 * server ends the walk there, as it would in a browser.
 */
export async function browse(authorizationUrl: string): Promise<{ url: URL; status: number }> {
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) return { url, status: response.status };
    url = new URL(location, url);
  }
  throw new Error("the authorization did not come back within 10 redirects");
}
