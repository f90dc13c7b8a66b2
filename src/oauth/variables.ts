// The two forms an oauth2 credential may be given in the environment
// (format section 4): a ready access token in <NAME>_API_KEY, or a refresh
// token with its client in <NAME>_REFRESH_TOKEN, <NAME>_CLIENT_ID and, for a
// confidential client, <NAME>_CLIENT_SECRET with, optionally, the way the
// client was registered to send it in <NAME>_CLIENT_AUTH_METHOD.
// From credentials.ts itself, not the egress index: --list reads these names and must not load undici.
import { credentialPrefix, credentialVariable } from "../egress/credentials.js";
import { PreflightFailed } from "../errors.js";

type Env = Record<string, string | undefined>;

/** The two ways a client with a secret proves itself at the token endpoint (RFC 6749 section 2.3.1). */
export const SECRET_METHODS = ["client_secret_basic", "client_secret_post"] as const;
export type SecretMethod = (typeof SECRET_METHODS)[number];

export function isSecretMethod(value: unknown): value is SecretMethod {
  return (SECRET_METHODS as readonly unknown[]).includes(value);
}

/** What the refresh grant needs. Held by the grant, never logged. */
export interface RefreshForm {
  refreshToken: string;
  clientId: string;
  clientSecret?: string;
  /** How the client sends its secret; undefined: as the server's metadata suggests. */
  clientAuthMethod?: SecretMethod;
}

export function refreshVariables(name: string): { refreshToken: string; clientId: string; clientSecret: string; clientAuthMethod: string } {
  const prefix = credentialPrefix(name);
  return { refreshToken: `${prefix}_REFRESH_TOKEN`, clientId: `${prefix}_CLIENT_ID`, clientSecret: `${prefix}_CLIENT_SECRET`, clientAuthMethod: `${prefix}_CLIENT_AUTH_METHOD` };
}

/** <NAME>_CLIENT_AUTH_METHOD, when set; a value that is not a method stops preflight at the credential's item. */
export function readClientAuthMethod(name: string, env: Env): SecretMethod | undefined {
  const variable = refreshVariables(name).clientAuthMethod;
  const value = env[variable];
  if (!value) return undefined;
  if (!isSecretMethod(value)) throw new PreflightFailed(`credential ${name}`, `${variable} is ${JSON.stringify(value.slice(0, 40))}; expected ${SECRET_METHODS.join(" or ")}`);
  return value;
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
  const clientAuthMethod = readClientAuthMethod(name, env);
  return { refreshToken, clientId, ...(clientSecret ? { clientSecret } : {}), ...(clientAuthMethod ? { clientAuthMethod } : {}) };
}

/** The variables to name when a credential is not set, so the message says every way to set it. */
export function missingCredentialHint(name: string, refreshable: boolean): string {
  const vars = refreshVariables(name);
  return refreshable ? `${credentialVariable(name)}, or ${vars.refreshToken} and ${vars.clientId}` : credentialVariable(name);
}
