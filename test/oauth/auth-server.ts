// A real OAuth 2 authorization server on loopback for the OAuth tests,
// written from the RFCs it stands for: RFC 8414 metadata, RFC 7591
// registration, the authorization endpoint (approving at once, as a person
// who clicks "Allow" would, and redirecting with code, state and the RFC 9207
// `iss`), and a token endpoint for authorization_code with PKCE S256 and for
// refresh_token with rotation and revocation. Access tokens expire.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { flattenHeaders, type ReceivedRequest } from "../support/api-fixture.js";
import { listenLoopback, readBody } from "../support/listen.js";

export interface AuthServerOptions {
  /** Offer RFC 7591 registration (default true). */
  registration?: boolean;
  /** Registered clients get a secret and must authenticate with HTTP Basic. */
  confidential?: boolean;
  /** expires_in of every access token, in seconds (default 3600). */
  accessLifetimeS?: number;
  /** Sent as `iss` in the redirect instead of the real issuer (RFC 9207 tests). */
  redirectIss?: string;
  /** Advertised as token_endpoint instead of the real one (mismatch tests). */
  advertisedTokenEndpoint?: string;
}

interface Client {
  secret?: string;
  redirectUris: string[];
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
}

export interface TokenRequest {
  grant: string;
  clientId: string | undefined;
  /** The refresh token presented, for refresh_token grants. */
  refreshToken?: string;
  /** What the server answered: "ok" or an OAuth error code. */
  outcome: string;
}

export interface AuthServer {
  origin: string;
  host: string;
  issuer: string;
  tokenEndpoint: string;
  received: ReceivedRequest[];
  tokenRequests: TokenRequest[];
  /** A grant as if someone had authorized already: a registered client (confidential when given a secret) and a live refresh token. */
  grant(options?: { secret?: string }): { clientId: string; refreshToken: string };
  /** Registers a client directly (a pre-registered client for --client-id). */
  addClient(clientId: string, redirectUris?: string[], secret?: string): void;
  /** Whether an access token is live: for resource servers. */
  accepts(accessToken: string): boolean;
  /** Ends every access token now, as a server-side revocation or clock skew would. */
  expireAccessTokens(): void;
  /** Revokes every refresh token: the next refresh gets invalid_grant. */
  revokeRefreshTokens(): void;
  /** Every secret the server ever issued (tokens, client secrets), for leak checks. */
  secrets(): string[];
  close(): Promise<void>;
}

export async function startAuthServer(options: AuthServerOptions = {}): Promise<AuthServer> {
  const received: ReceivedRequest[] = [];
  const tokenRequests: TokenRequest[] = [];
  const clients = new Map<string, Client>();
  const codes = new Map<string, Code>();
  const refreshTokens = new Map<string, { clientId: string; scope: string }>();
  const accessTokens = new Map<string, number>();
  const issued: string[] = [];
  const lifetime = options.accessLifetimeS ?? 3600;
  let origin = "";

  const mint = (prefix: string) => {
    const value = `${prefix}-${randomBytes(16).toString("hex")}`;
    issued.push(value);
    return value;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => json(res, 500, { error: "server_error", error_description: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = (await readBody(req)).toString("utf8");
    const url = new URL(req.url ?? "/", origin);
    received.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: flattenHeaders(req), body });
    if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") return json(res, 200, metadata());
    if (req.method === "POST" && url.pathname === "/register" && options.registration !== false) return register(res, body);
    if (req.method === "GET" && url.pathname === "/authorize") return authorize(res, url.searchParams);
    if (req.method === "POST" && url.pathname === "/token") return token(req, res, new URLSearchParams(body));
    json(res, 404, { error: "not_found" });
  }

  function metadata() {
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: options.advertisedTokenEndpoint ?? `${origin}/token`,
      ...(options.registration !== false ? { registration_endpoint: `${origin}/register` } : {}),
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
      authorization_response_iss_parameter_supported: true,
    };
  }

  function register(res: ServerResponse, body: string): void {
    const asked = JSON.parse(body) as { redirect_uris?: string[] };
    if (!Array.isArray(asked.redirect_uris) || asked.redirect_uris.length === 0) return json(res, 400, { error: "invalid_redirect_uri" });
    const clientId = `client-${randomBytes(6).toString("hex")}`;
    const secret = options.confidential ? mint("secret") : undefined;
    clients.set(clientId, { redirectUris: asked.redirect_uris, ...(secret ? { secret } : {}) });
    json(res, 201, {
      client_id: clientId,
      redirect_uris: asked.redirect_uris,
      token_endpoint_auth_method: secret ? "client_secret_basic" : "none",
      // RFC 7591 3.2.1: required with a secret; 0 is "never expires".
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    });
  }

  /** Approves at once: the test plays a person who clicks "Allow". */
  function authorize(res: ServerResponse, q: URLSearchParams): void {
    const clientId = q.get("client_id") ?? "";
    const redirectUri = q.get("redirect_uri") ?? "";
    const client = clients.get(clientId);
    if (!client || !client.redirectUris.some((r) => sameLoopbackRedirect(r, redirectUri))) return json(res, 400, { error: "invalid_request", error_description: "unknown client or redirect_uri" });
    if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
      return json(res, 400, { error: "invalid_request", error_description: "code with PKCE S256 required" });
    }
    const code = mint("code");
    codes.set(code, { clientId, redirectUri, challenge: q.get("code_challenge")!, scope: q.get("scope") ?? "" });
    const target = new URL(redirectUri);
    target.searchParams.set("code", code);
    if (q.get("state") !== null) target.searchParams.set("state", q.get("state")!);
    target.searchParams.set("iss", options.redirectIss ?? origin);
    res.writeHead(302, { location: target.href });
    res.end();
  }

  function token(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void {
    const grant = form.get("grant_type") ?? "";
    const clientId = authenticate(req, form);
    const record: TokenRequest = { grant, clientId, outcome: "ok", ...(form.get("refresh_token") ? { refreshToken: form.get("refresh_token")! } : {}) };
    tokenRequests.push(record);
    const fail = (error: string) => {
      record.outcome = error;
      json(res, error === "invalid_client" ? 401 : 400, { error });
    };
    if (clientId === undefined) return fail("invalid_client");
    if (grant === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (!code || code.clientId !== clientId || code.redirectUri !== form.get("redirect_uri")) return fail("invalid_grant");
      if (createHash("sha256").update(verifier).digest("base64url") !== code.challenge) return fail("invalid_grant");
      return json(res, 200, tokens(clientId, code.scope));
    }
    if (grant === "refresh_token") {
      const presented = form.get("refresh_token") ?? "";
      const live = refreshTokens.get(presented);
      if (!live || live.clientId !== clientId) return fail("invalid_grant");
      // Rotation: a refresh token is good for one exchange.
      refreshTokens.delete(presented);
      return json(res, 200, tokens(clientId, live.scope));
    }
    fail("unsupported_grant_type");
  }

  /** The client a token request comes from: HTTP Basic for a confidential client, client_id in the form for a public one. */
  function authenticate(req: IncomingMessage, form: URLSearchParams): string | undefined {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map(decodeURIComponent);
      const client = clients.get(id ?? "");
      return client?.secret !== undefined && client.secret === secret ? id : undefined;
    }
    const id = form.get("client_id") ?? "";
    const client = clients.get(id);
    return client && client.secret === undefined ? id : undefined;
  }

  function tokens(clientId: string, scope: string) {
    const access = mint("access");
    const refresh = mint("refresh");
    accessTokens.set(access, Date.now() + lifetime * 1000);
    refreshTokens.set(refresh, { clientId, scope });
    return { access_token: access, token_type: "Bearer", expires_in: lifetime, refresh_token: refresh, scope };
  }

  const listening = await listenLoopback(server);
  origin = listening.origin;
  return {
    origin,
    host: listening.host,
    issuer: origin,
    tokenEndpoint: `${origin}/token`,
    received,
    tokenRequests,
    grant(grantOptions = {}) {
      const clientId = `client-${randomBytes(6).toString("hex")}`;
      clients.set(clientId, { redirectUris: [], ...(grantOptions.secret ? { secret: grantOptions.secret } : {}) });
      const refreshToken = mint("refresh");
      refreshTokens.set(refreshToken, { clientId, scope: "tools" });
      return { clientId, refreshToken };
    },
    addClient(clientId, redirectUris = ["http://127.0.0.1/callback"], secret) {
      clients.set(clientId, { redirectUris, ...(secret ? { secret } : {}) });
    },
    accepts(accessToken) {
      const until = accessTokens.get(accessToken);
      return until !== undefined && Date.now() < until;
    },
    expireAccessTokens() {
      accessTokens.clear();
    },
    revokeRefreshTokens() {
      refreshTokens.clear();
    },
    secrets: () => [...issued],
    close: listening.close,
  };
}

/** RFC 8252 7.3: for a loopback redirect the port is chosen at run time, so it is not compared. */
function sameLoopbackRedirect(registered: string, asked: string): boolean {
  const a = new URL(registered);
  const b = new URL(asked);
  return a.protocol === b.protocol && a.hostname === b.hostname && a.pathname === b.pathname && (a.port === b.port || a.hostname === "127.0.0.1");
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(value));
}
