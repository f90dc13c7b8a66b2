// The serving process's OAuth grants, with the token store when the
// operator asked for one. A store that cannot be used stops the server at
// start with one line, before any run could spend a refresh token.
import { OAuthGrants } from "../oauth/grants.js";
import { TokenStore, TokenStoreError } from "../oauth/token-store.js";

export function openGrants(tokenStore: string | undefined, err: (line: string) => void): OAuthGrants | undefined {
  if (tokenStore === undefined) return new OAuthGrants();
  try {
    return new OAuthGrants({ store: TokenStore.open(tokenStore), warn: (message) => err(`stepgate: ${message}`) });
  } catch (error) {
    if (!(error instanceof TokenStoreError)) throw error;
    err(`stepgate: --token-store ${error.message}`);
    return undefined;
  }
}
