// The refresh-token grants of one Stepgate process, shared by all its runs,
// and the CredentialSource that plugs them into egress.
import type * as oauth from "oauth4webapi";
import { credentialVariable, envCredentials, type CredentialRef, type CredentialSource, type EgressPolicy } from "../egress/index.js";
import { RefreshGrant } from "./grant.js";
import type { StoredAccess, TokenStore } from "./token-store.js";
import { readClientAuthMethod, readRefreshForm, refreshVariables, type RefreshForm } from "./variables.js";

type Env = Record<string, string | undefined>;

export interface OAuthGrantsOptions {
  now?: () => number;
  /** `--token-store`: rotated refresh tokens kept across restarts. */
  store?: TokenStore;
  /** Told when a rotated token could not be written to the store (the run goes on with it in memory). */
  warn?: (message: string) => void;
}

/**
 * Grants are keyed by what identifies them at the authorization server, not
 * by credential name: two stepfiles naming one grant differently must still
 * share it, or the first rotation would leave the other with a spent token.
 */
export class OAuthGrants {
  private readonly grants = new Map<string, RefreshGrant>();
  /**
   * The store's answer per credential, client and environment token, read
   * once: after a rotation the store holds the newer token, but the grant
   * (keyed by the token it started from) already holds that one.
   */
  private readonly startTokens = new Map<string, string | undefined>();
  /** Authorization server metadata preflight read, by token endpoint. */
  private readonly servers = new Map<string, oauth.AuthorizationServer>();
  private readonly now: () => number;

  constructor(private readonly options: OAuthGrantsOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Preflight read the metadata of the server that advertises this token endpoint: refreshes check its issuer. */
  learn(tokenUrl: string, server: oauth.AuthorizationServer): void {
    this.servers.set(new URL(tokenUrl).href, server);
  }

  /**
   * The refresh form of a credential: the environment's, with the refresh
   * token replaced by the store's when the store holds a later one of the
   * same chain (or the environment gives only the client id).
   */
  refreshForm(name: string, tokenUrl: string, env: Env): RefreshForm | undefined {
    const fromEnv = readRefreshForm(name, env);
    const store = this.options.store;
    if (!store) return fromEnv;
    const clientId = env[refreshVariables(name).clientId];
    if (!clientId) return fromEnv;
    const key = JSON.stringify([name, new URL(tokenUrl).href, clientId, fromEnv?.refreshToken ?? null]);
    if (!this.startTokens.has(key)) this.startTokens.set(key, store.current(name, tokenUrl, clientId, fromEnv?.refreshToken));
    const stored = this.startTokens.get(key);
    // The environment's method wins; else the one --auth kept with the client in the store.
    const clientAuthMethod = readClientAuthMethod(name, env) ?? store.clientAuthMethod(name, tokenUrl, clientId);
    if (stored === undefined) return fromEnv && { ...fromEnv, ...(clientAuthMethod ? { clientAuthMethod } : {}) };
    const clientSecret = env[refreshVariables(name).clientSecret];
    return { refreshToken: stored, clientId, ...(clientSecret ? { clientSecret } : {}), ...(clientAuthMethod ? { clientAuthMethod } : {}) };
  }

  /**
   * The access token --auth kept in the store for a credential whose server
   * issued no refresh token (or when it expired), used when the environment
   * gives neither <NAME>_API_KEY nor the refresh form.
   */
  storedAccess(name: string, tokenUrl: string | undefined): StoredAccess | undefined {
    return tokenUrl === undefined ? undefined : this.options.store?.access(name, tokenUrl, this.now());
  }

  grant(name: string, tokenUrl: string, form: RefreshForm, resource?: string): RefreshGrant {
    const url = new URL(tokenUrl);
    const key = JSON.stringify([url.href, form.clientId, form.refreshToken]);
    let grant = this.grants.get(key);
    if (!grant) {
      const store = this.options.store;
      let previous = form.refreshToken;
      grant = new RefreshGrant(url, form, {
        now: this.now,
        knownServer: () => this.servers.get(url.href),
        ...(resource ? { resource } : {}),
        ...(store
          ? {
              rotated: async (token: string) => {
                try {
                  await store.save(name, url.href, form.clientId, token, previous);
                } catch (error) {
                  this.options.warn?.(`the rotated refresh token of credential ${name} was not saved: ${(error as Error).message}`);
                }
                previous = token;
              },
            }
          : {}),
      });
      this.grants.set(key, grant);
    }
    return grant;
  }
}

export interface OAuthSourceOptions {
  grants: OAuthGrants;
  /** oauth2 credentials with a token_url: name -> token_url. */
  tokenUrls: ReadonlyMap<string, string>;
  /** oauth2 credentials of MCP tools: name -> the MCP server's URL, the RFC 8707 resource of its tokens. */
  resources?: ReadonlyMap<string, string>;
  env: Env;
  /** For token requests (User-Agent, limits, retry records); its hosts are replaced by token_url's. */
  policy: EgressPolicy;
}

/**
 * A run's credential source. A credential given in the refresh form is read
 * as its grant's access token; every other credential as <NAME>_API_KEY, or,
 * when that is unset, as the access token --auth kept in the token store.
 * When both forms are set, the refresh form wins: it is the one that still
 * works after an access token expires.
 */
export function oauthCredentials(options: OAuthSourceOptions): CredentialSource {
  const fallback = envCredentials(options.env);
  // The token last handed out per credential, so a 401 can tell a stale token from a refreshed one.
  const lastSent = new Map<string, string>();
  const grantOf = (credential: CredentialRef): RefreshGrant | undefined => {
    const tokenUrl = credential.kind === "oauth2" ? options.tokenUrls.get(credential.name) : undefined;
    const form = tokenUrl === undefined ? undefined : options.grants.refreshForm(credential.name, tokenUrl, options.env);
    return form && options.grants.grant(credential.name, tokenUrl!, form, options.resources?.get(credential.name));
  };
  return {
    async read(credential) {
      const grant = grantOf(credential);
      if (!grant) {
        const stored = options.env[credentialVariable(credential.name)] ? undefined : options.grants.storedAccess(credential.name, options.tokenUrls.get(credential.name));
        return stored && "token" in stored ? stored.token : fallback.read(credential);
      }
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
export function usesRefreshForm(grants: OAuthGrants, name: string, tokenUrls: ReadonlyMap<string, string>, env: Env): boolean {
  const tokenUrl = tokenUrls.get(name);
  return tokenUrl !== undefined && grants.refreshForm(name, tokenUrl, env) !== undefined;
}
