// `stepgate --auth <stepfile | catalog name> <credential> [--client-id <id>]`:
// finds the credential's MCP tool, runs the authorization in src/oauth, and
// prints the environment variables to set (the refresh form, or, when the
// server issues no refresh token, the access token as <NAME>_API_KEY). Without --token-store it writes
// them nowhere: where secrets live is the operator's choice (an MCP client's
// config, a secret manager), and a file Stepgate wrote would be one more
// copy. With --token-store (the operator's choice of such a file) the
// refresh token goes there instead of to stdout.
import { AuthorizationFailed, StepgateError } from "../errors.js";
import { addressGuard, credentialVariable, userAgent, type EgressPolicy } from "../egress/index.js";
import { hostOf } from "../format/urls.js";
import { authorize, type Authorized } from "../oauth/authorize.js";
import { TokenStore } from "../oauth/token-store.js";
import { refreshVariables } from "../oauth/variables.js";
import { fillSettings, readSettings } from "../tools/settings.js";
import { loadArgument } from "./catalog.js";
import type { Options } from "./options.js";

/** How long the person has to approve in the browser. */
export const AUTH_WAIT_MS = 300_000;

export interface AuthIo {
  env: Record<string, string | undefined>;
  version: string;
  /** The URL and the variables: what a script may read. */
  out(line: string): void;
  /** Guidance for the person, and errors. */
  err(line: string): void;
}

/** Exit 0 once the variables are printed; 1 with one `<ErrorType>: <reason>` line otherwise. */
export async function runAuth(options: Options, io: AuthIo): Promise<number> {
  const [stepfileArg, credential] = options.positionals as [string, string];
  try {
    const target = await findTarget(stepfileArg, credential, io.env);
    // Opened before the browser step, so a store that cannot be used stops here and not after the person approved.
    const store = options.tokenStore === undefined ? undefined : openStore(options.tokenStore);
    const vars = refreshVariables(credential);
    const clientSecret = options.clientId !== undefined ? io.env[vars.clientSecret] || undefined : undefined;
    // A method for a client without a secret would be silently ignored.
    if (options.clientAuthMethod !== undefined && clientSecret === undefined) throw new AuthorizationFailed(`--client-auth-method ${options.clientAuthMethod} is for a confidential client: set ${vars.clientSecret} to its secret`);
    const policy: EgressPolicy = {
      allowedHosts: new Set([hostOf(target.mcpUrl)!]),
      userAgent: userAgent(io.version, options.contact),
      timeoutMs: options.limits.requestTimeoutMs,
      maxBytes: options.limits.responseBytes,
      env: {},
      addresses: addressGuard({ allowPrivateHosts: options.allowPrivateHosts }),
    };
    const waitMs = options.authWaitMs ?? AUTH_WAIT_MS;
    const granted = await authorize({
      credential,
      ...target,
      ...(options.clientId !== undefined ? { clientId: options.clientId } : {}),
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      ...(options.clientAuthMethod !== undefined ? { clientAuthMethod: options.clientAuthMethod } : {}),
      ...(options.redirectPort !== undefined ? { redirectPort: options.redirectPort } : {}),
      policy,
      waitMs,
      showAuthorizationUrl(url, redirectUri) {
        io.err(`Open this URL in a browser to authorize credential ${credential}; Stepgate waits ${waitForHumans(waitMs)} for the redirect to ${redirectUri}:`);
        io.out(url);
      },
    });
    if (granted.refreshToken === undefined) {
      await offerAccessToken(credential, target.tokenUrl, granted, store, io);
      return 0;
    }
    if (store) {
      await store.save(credential, target.tokenUrl, granted.clientId, granted.refreshToken, undefined, granted.clientAuthMethod);
      io.err(`Authorized. The refresh token is in ${store.path}; serve with --token-store ${store.path} and set these in Stepgate's environment:`);
    } else {
      io.err(`Authorized. Set these in Stepgate's environment (for example your MCP client's server configuration); Stepgate has not saved them anywhere:`);
      io.out(`${vars.refreshToken}=${granted.refreshToken}`);
    }
    io.out(`${vars.clientId}=${granted.clientId}`);
    // A secret given in the environment is already there; one the server just registered is new.
    if (granted.clientSecret !== undefined && granted.clientSecret !== clientSecret) io.out(`${vars.clientSecret}=${granted.clientSecret}`);
    // Every refresh must send the secret the way the code exchange did: the way the client was registered.
    if (granted.clientAuthMethod !== undefined) io.out(`${vars.clientAuthMethod}=${granted.clientAuthMethod}`);
    return 0;
  } catch (error) {
    const typed = error instanceof StepgateError ? error : new AuthorizationFailed((error as Error).message);
    io.err(`${typed.name}: ${typed.message.split("\n").join(" ")}`);
    return 1;
  }
}

/**
 * Refresh tokens are optional (RFC 6749 section 5.1): without one, the
 * access token is still good until it expires, so it is offered as the
 * credential's <NAME>_API_KEY, which a run sends as it is and never
 * refreshes; with --token-store it is written there instead, with its
 * expiry, and runs served with the store use it.
 */
async function offerAccessToken(credential: string, tokenUrl: string, granted: Authorized, store: TokenStore | undefined, io: AuthIo): Promise<void> {
  const expiresAt = granted.expiresIn === undefined ? undefined : new Date(Math.floor(Date.now() / 1000 + granted.expiresIn) * 1000);
  const expiry = expiresAt === undefined ? "the server did not say when it expires" : `it expires at ${expiresAt.toISOString().replace(/\.\d+Z$/, "Z")} (in ${waitForHumans(granted.expiresIn! * 1000)})`;
  const scope = granted.refreshScope === undefined ? "" : ` For a refresh token, add ${granted.refreshScope} to the scopes of credential ${credential} (the server lists it) and run --auth again.`;
  io.err(`Authorized, but ${granted.issuer} issued no refresh token, so this access token will not be refreshed: ${expiry}; after that, run --auth again.${scope}`);
  if (store) {
    await store.saveAccess(credential, tokenUrl, granted.accessToken, expiresAt);
    io.err(`The access token is in ${store.path}; serve with --token-store ${store.path} (and no ${credentialVariable(credential)} set) to use it.`);
    return;
  }
  io.err(`Set this in Stepgate's environment; Stepgate has not saved it anywhere:`);
  io.out(`${credentialVariable(credential)}=${granted.accessToken}`);
}

/** 300000 ms as "5 minutes", 3600 s as "60 minutes", 90 s as "90 s". */
function waitForHumans(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`;
}

function openStore(path: string): TokenStore {
  try {
    return TokenStore.open(path);
  } catch (error) {
    throw new AuthorizationFailed(`--token-store ${(error as Error).message}`);
  }
}

/** The credential's MCP tool and what authorizing needs from the stepfile, or why it cannot be authorized. */
async function findTarget(stepfileArg: string, credential: string, env: Record<string, string | undefined>): Promise<{ mcpUrl: string; tokenUrl: string; scopes: readonly string[] }> {
  const { doc } = await loadArgument(stepfileArg);
  const def = doc.credentials?.[credential];
  if (!def) throw new AuthorizationFailed(`${doc.id} declares no credential ${credential}`);
  if (def.kind !== "oauth2") throw new AuthorizationFailed(`credential ${credential} is ${def.kind}; only oauth2 credentials are authorized`);
  // The refresh form is only read for a credential with a token_url, so a refresh token without one would be useless.
  if (!def.token_url) throw new AuthorizationFailed(`credential ${credential} has no token_url, so Stepgate could not use a refresh token for it`);
  const tool = Object.values(doc.tools ?? {}).find((t) => t.credential === credential && t.mcp);
  if (!tool) throw new AuthorizationFailed(`no MCP tool of ${doc.id} uses credential ${credential}`);
  const mcpUrl = fillSettings(tool.mcp!.url, readSettings(doc.settings ?? {}, env));
  return { mcpUrl, tokenUrl: def.token_url, scopes: def.scopes ?? [] };
}
