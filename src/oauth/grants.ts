// The refresh-token grants of one Stepgate process, shared by all its runs,
// and the CredentialSource that plugs them into egress.
import { envCredentials, type CredentialRef, type CredentialSource, type EgressPolicy } from "../egress/index.js";
import { RefreshGrant } from "./grant.js";
import { readRefreshForm, type RefreshForm } from "./variables.js";

/**
 * Grants are keyed by what identifies them at the authorization server, not
 * by credential name: two stepfiles naming one grant differently must still
 * share it, or the first rotation would leave the other with a spent token.
 */
export class OAuthGrants {
  private readonly grants = new Map<string, RefreshGrant>();

  constructor(private readonly now: () => number = Date.now) {}

  grant(tokenUrl: string, form: RefreshForm): RefreshGrant {
    const url = new URL(tokenUrl);
    const key = JSON.stringify([url.href, form.clientId, form.refreshToken]);
    let grant = this.grants.get(key);
    if (!grant) {
      grant = new RefreshGrant(url, form, this.now);
      this.grants.set(key, grant);
    }
    return grant;
  }
}

export interface OAuthSourceOptions {
  grants: OAuthGrants;
  /** oauth2 credentials with a token_url: name -> token_url. */
  tokenUrls: ReadonlyMap<string, string>;
  env: Record<string, string | undefined>;
  /** For token requests (User-Agent, limits, retry records); its hosts are replaced by token_url's. */
  policy: EgressPolicy;
}

/**
 * A run's credential source. A credential given in the refresh form is read
 * as its grant's access token; every other credential as <NAME>_API_KEY.
 * When both forms are set, the refresh form wins: it is the one that still
 * works after an access token expires.
 */
export function oauthCredentials(options: OAuthSourceOptions): CredentialSource {
  const fallback = envCredentials(options.env);
  // The token last handed out per credential, so a 401 can tell a stale token from a refreshed one.
  const lastSent = new Map<string, string>();
  const grantOf = (credential: CredentialRef): RefreshGrant | undefined => {
    const tokenUrl = credential.kind === "oauth2" ? options.tokenUrls.get(credential.name) : undefined;
    const form = tokenUrl === undefined ? undefined : readRefreshForm(credential.name, options.env);
    return form && options.grants.grant(tokenUrl!, form);
  };
  return {
    async read(credential) {
      const grant = grantOf(credential);
      if (!grant) return fallback.read(credential);
      const token = await grant.accessToken(credential.name, options.policy);
      lastSent.set(credential.name, token);
      return token;
    },
    async rejected(credential) {
      const grant = grantOf(credential);
      if (!grant) return false;
      return grant.rejected(credential.name, lastSent.get(credential.name), options.policy);
    },
  };
}

/** Whether a credential will be read through a grant (preflight refreshes these at start). */
export function usesRefreshForm(name: string, tokenUrls: ReadonlyMap<string, string>, env: Record<string, string | undefined>): boolean {
  return tokenUrls.has(name) && readRefreshForm(name, env) !== undefined;
}
