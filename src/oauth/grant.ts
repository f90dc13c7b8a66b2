// One refresh-token grant, held in memory for the life of the process: its
// current access token (until shortly before it expires), its refresh token
// (replaced when the authorization server rotates it, and written to the
// token store when the operator keeps one, since Stepgate cannot rewrite its
// environment), and whether it was revoked.
import * as oauth from "oauth4webapi";
import { InvalidGrant, StepgateError, ToolCallFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { readServerMetadata } from "./discover.js";
import { viaEgress } from "./http.js";
import { serverWords } from "./server-words.js";
import { isSecretMethod, type RefreshForm, type SecretMethod } from "./variables.js";

/** An access token is not used in its last minute, so it cannot expire on the way. */
export const EXPIRY_MARGIN_MS = 60_000;

/**
 * How long before expiry a token stops being used: a minute, or a tenth of
 * its lifetime when that is shorter, so a token that lives a minute or less
 * is still used for most of its life instead of being refreshed before
 * every request.
 */
export function expiryMarginMs(lifetimeMs: number): number {
  return Math.min(EXPIRY_MARGIN_MS, lifetimeMs / 10);
}

export interface GrantContext {
  now: () => number;
  /** The authorization server's metadata when preflight read it (an MCP tool's discovery). */
  knownServer: () => oauth.AuthorizationServer | undefined;
  /** RFC 8707: the MCP server's URL, sent on every token request as the authorization request did. */
  resource?: string;
  /** Called with each rotated refresh token before it is used (the token store). */
  rotated?: (refreshToken: string) => Promise<void>;
}

export class RefreshGrant {
  private refreshToken: string;
  private access: { token: string; usableUntil: number } | undefined;
  /** One exchange at a time: with rotation, two concurrent refreshes would spend one refresh token twice. */
  private inflight: Promise<string> | undefined;
  private revoked = false;
  private discovered: oauth.AuthorizationServer | undefined;

  constructor(
    private readonly tokenUrl: URL,
    private readonly form: RefreshForm,
    private readonly context: GrantContext,
  ) {
    this.refreshToken = form.refreshToken;
  }

  /** The access token to send now: the held one while usable, else a fresh one. */
  async accessToken(credential: string, policy: EgressPolicy): Promise<string> {
    if (this.revoked) throw new InvalidGrant(credential);
    if (this.access && this.context.now() < this.access.usableUntil) return this.access.token;
    return this.refresh(credential, policy);
  }

  /**
   * An API answered 401 to `sent`. Resolves true once a newer token is
   * held, so egress sends the request once more. When another request
   * already replaced `sent`, that newer token is used without a new exchange.
   */
  async rejected(credential: string, sent: string | undefined, policy: EgressPolicy): Promise<boolean> {
    if (this.revoked) throw new InvalidGrant(credential);
    if (this.inflight) await this.inflight;
    else if (this.access && this.access.token !== sent) return true;
    else {
      this.access = undefined;
      await this.refresh(credential, policy);
    }
    return true;
  }

  private refresh(credential: string, policy: EgressPolicy): Promise<string> {
    this.inflight ??= this.exchange(credential, policy).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** One refresh grant request. Never retried on failure: a resent refresh may revoke a working grant. */
  private async exchange(credential: string, policy: EgressPolicy): Promise<string> {
    const operation = `token refresh of credential ${credential}`;
    const server = await this.server(policy);
    const client: oauth.Client = { client_id: this.form.clientId };
    let tokens: oauth.TokenEndpointResponse;
    try {
      const options = { ...viaEgress(policy, [this.tokenUrl.host], operation, this.tokenUrl), ...(this.context.resource ? { additionalParameters: { resource: this.context.resource } } : {}) };
      const response = await oauth.refreshTokenGrantRequest(server, client, clientAuthentication(server, this.form.clientSecret, this.form.clientAuthMethod), this.refreshToken, options);
      tokens = await oauth.processRefreshTokenResponse(server, client, response);
    } catch (error) {
      throw this.failure(credential, operation, error);
    }
    if (tokens.refresh_token && tokens.refresh_token !== this.refreshToken) {
      this.refreshToken = tokens.refresh_token;
      await this.context.rotated?.(tokens.refresh_token);
    }
    const lifetimeMs = typeof tokens.expires_in === "number" ? tokens.expires_in * 1000 : Number.POSITIVE_INFINITY;
    this.access = { token: tokens.access_token, usableUntil: this.context.now() + lifetimeMs - expiryMarginMs(lifetimeMs) };
    return tokens.access_token;
  }

  /**
   * The authorization server whose issuer oauth4webapi checks an id_token's
   * `iss` against. Preflight knows it for an MCP tool; otherwise it is
   * discovered once on token_url's host, trying each issuer path token_url
   * sits under (`/oidc/token` -> `/oidc`, then `/`), and a metadata document
   * counts only when it advertises token_url itself. A server that publishes
   * none is taken as issuer = token_url's origin.
   */
  private async server(policy: EgressPolicy): Promise<oauth.AuthorizationServer> {
    const known = this.context.knownServer() ?? this.discovered;
    if (known) return known;
    const segments = this.tokenUrl.pathname.split("/").filter(Boolean).slice(0, -1);
    for (let n = segments.length; n >= 0; n--) {
      const issuer = new URL(`/${segments.slice(0, n).join("/")}`, this.tokenUrl.origin);
      const metadata = await readServerMetadata(issuer, policy).catch(() => undefined);
      if (metadata?.token_endpoint !== undefined && new URL(metadata.token_endpoint).href === this.tokenUrl.href) return (this.discovered = metadata);
    }
    return (this.discovered = { issuer: this.tokenUrl.origin, token_endpoint: this.tokenUrl.href });
  }

  /** invalid_grant revokes this grant for the process; anything else is a failed call, named without the token endpoint's text. */
  private failure(credential: string, operation: string, error: unknown): StepgateError {
    if (error instanceof oauth.ResponseBodyError) {
      if (error.error === "invalid_grant") {
        this.revoked = true;
        this.access = undefined;
        return new InvalidGrant(credential);
      }
      return new ToolCallFailed(operation, error.status, "", serverWords(error, [this.refreshToken, this.form.clientSecret]));
    }
    if (error instanceof StepgateError) return error;
    return new ToolCallFailed(operation, null, "", (error as Error).message);
  }
}

/**
 * How a client proves itself at the token endpoint: nothing for a public
 * client; for a secret, the method it was registered with (RFC 7591
 * section 2: a server may refuse any other), else HTTP Basic (RFC 6749
 * 2.3.1 asks every server to accept it) unless the server's metadata lists
 * only the form-body method.
 */
export function clientAuthMethod(server: oauth.AuthorizationServer, secret: string | undefined, registered?: string): SecretMethod | undefined {
  if (secret === undefined) return undefined;
  if (isSecretMethod(registered)) return registered;
  const supported = server.token_endpoint_auth_methods_supported;
  return supported !== undefined && supported.includes("client_secret_post") && !supported.includes("client_secret_basic") ? "client_secret_post" : "client_secret_basic";
}

export function clientAuthentication(server: oauth.AuthorizationServer, secret: string | undefined, registered?: string): oauth.ClientAuth {
  const method = clientAuthMethod(server, secret, registered);
  if (method === undefined) return oauth.None();
  return method === "client_secret_post" ? oauth.ClientSecretPost(secret!) : oauth.ClientSecretBasic(secret!);
}
