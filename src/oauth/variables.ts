// The two forms an oauth2 credential may be given in the environment
// (format section 4): a ready access token in <NAME>_API_KEY, or a refresh
// token with its client in <NAME>_REFRESH_TOKEN, <NAME>_CLIENT_ID and, for a
// confidential client, <NAME>_CLIENT_SECRET.
// From credentials.ts itself, not the egress index: --list reads these names and must not load undici.
import { credentialPrefix, credentialVariable } from "../egress/credentials.js";

type Env = Record<string, string | undefined>;

/** What the refresh grant needs. Held by the grant, never logged. */
export interface RefreshForm {
  refreshToken: string;
  clientId: string;
  clientSecret?: string;
}

export function refreshVariables(name: string): { refreshToken: string; clientId: string; clientSecret: string } {
  const prefix = credentialPrefix(name);
  return { refreshToken: `${prefix}_REFRESH_TOKEN`, clientId: `${prefix}_CLIENT_ID`, clientSecret: `${prefix}_CLIENT_SECRET` };
}

/**
 * The refresh form, when both its required variables are set. It is only
 * read for a credential with a `token_url`: without one there is nowhere to
 * exchange it.
 */
export function readRefreshForm(name: string, env: Env): RefreshForm | undefined {
  const vars = refreshVariables(name);
  const refreshToken = env[vars.refreshToken];
  const clientId = env[vars.clientId];
  if (!refreshToken || !clientId) return undefined;
  const clientSecret = env[vars.clientSecret];
  return { refreshToken, clientId, ...(clientSecret ? { clientSecret } : {}) };
}

/** The variables to name when a credential is not set, so the message says every way to set it. */
export function missingCredentialHint(name: string, refreshable: boolean): string {
  const vars = refreshVariables(name);
  return refreshable ? `${credentialVariable(name)}, or ${vars.refreshToken} and ${vars.clientId}` : credentialVariable(name);
}
