// One refresh-token grant, held in memory for the life of the process: its
// current access token (until 60 s before it expires), its refresh token
// (replaced when the authorization server rotates it, since Stepgate cannot
// rewrite its environment), and whether it was revoked.
import * as oauth from "oauth4webapi";
import { InvalidGrant, StepgateError, ToolCallFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { viaEgress } from "./http.js";
import type { RefreshForm } from "./variables.js";

/** An access token is not used in its last minute, so it cannot expire on the way. */
export const EXPIRY_MARGIN_MS = 60_000;

export class RefreshGrant {
  private refreshToken: string;
  private access: { token: string; usableUntil: number } | undefined;
  /** One exchange at a time: with rotation, two concurrent refreshes would spend one refresh token twice. */
  private inflight: Promise<string> | undefined;
  private revoked = false;

  constructor(
    private readonly tokenUrl: URL,
    private readonly form: RefreshForm,
    private readonly now: () => number = Date.now,
  ) {
    this.refreshToken = form.refreshToken;
  }

  /** The access token to send now: the held one while usable, else a fresh one. */
  async accessToken(credential: string, policy: EgressPolicy): Promise<string> {
    if (this.revoked) throw new InvalidGrant(credential);
    if (this.access && this.now() < this.access.usableUntil) return this.access.token;
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
    const server: oauth.AuthorizationServer = { issuer: this.tokenUrl.origin, token_endpoint: this.tokenUrl.href };
    const client: oauth.Client = { client_id: this.form.clientId };
    // RFC 6749 2.3.1: every authorization server must accept HTTP Basic for a client secret.
    const auth = this.form.clientSecret ? oauth.ClientSecretBasic(this.form.clientSecret) : oauth.None();
    const operation = `token refresh of credential ${credential}`;
    let tokens: oauth.TokenEndpointResponse;
    try {
      const options = viaEgress(policy, [this.tokenUrl.host], operation, this.tokenUrl);
      const response = await oauth.refreshTokenGrantRequest(server, client, auth, this.refreshToken, options);
      tokens = await oauth.processRefreshTokenResponse(server, client, response);
    } catch (error) {
      throw this.failure(credential, operation, error);
    }
    if (tokens.refresh_token) this.refreshToken = tokens.refresh_token;
    const lifetimeMs = typeof tokens.expires_in === "number" ? tokens.expires_in * 1000 : Number.POSITIVE_INFINITY;
    this.access = { token: tokens.access_token, usableUntil: this.now() + lifetimeMs - EXPIRY_MARGIN_MS };
    return tokens.access_token;
  }

  /** invalid_grant revokes this grant for the process; anything else is a failed call, named without the token endpoint's text. */
  private failure(credential: string, operation: string, error: unknown): StepgateError {
    if (error instanceof oauth.ResponseBodyError) {
      if (error.error === "invalid_grant") {
        this.revoked = true;
        this.access = undefined;
        return new InvalidGrant(credential);
      }
      return new ToolCallFailed(operation, error.status, "", `the token endpoint answered ${error.error}`);
    }
    if (error instanceof StepgateError) return error;
    return new ToolCallFailed(operation, null, "", (error as Error).message);
  }
}
