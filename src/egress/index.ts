// The egress layer's public surface: one request path, its fetch face, and
// the URL helpers tool kinds use to build what they send.
export { egress } from "./egress.js";
export { attemptsOf, egressFetch, type FetchLike } from "./fetch.js";
export { userAgent } from "./user-agent.js";
export { credentialPrefix, credentialVariable, envCredentials } from "./credentials.js";
export { MAX_ATTEMPTS, MAX_WAIT_MS } from "./retry-policy.js";
export { MAX_REDIRECTS } from "./redirects.js";
export { addressGuard, type AddressGuard, type Resolver } from "./address-guard.js";
export type {
  CredentialPlacement,
  CredentialRef,
  CredentialSource,
  EgressPolicy,
  EgressRequest,
  EgressResponse,
  EgressSpan,
  EgressTrace,
  RetryRecord,
} from "./types.js";
