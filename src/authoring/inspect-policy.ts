// The egress policy of inspection: no credential source at all, and only the
// hosts already judged public, so a redirect to any other host (a private
// one included) is refused by egress rather than followed.
import type { AddressGuard } from "../egress/address-guard.js";
import { egressFetch, type EgressPolicy, type FetchLike } from "../egress/index.js";
import { loadFetchMs } from "../limits.js";
import type { AuthoringOptions } from "./options.js";

/**
 * Every inspection has the bound in all a load's fetch has (src/limits.ts
 * loadFetchMs, retries included): an agent's stepgate_inspect_api and the
 * MCP inspection wait on it as a start or a --check does, and an MCP client
 * gives up on a tool call long before the seed's five attempts of a whole
 * request timeout each. `load.addresses`: the operator's
 * --allow-private-host guard, where a CLI mode has one (else egress's default).
 */
export function inspectFetch(requests: AuthoringOptions["requests"], hosts: Iterable<string>, operation: string, load: { addresses?: AddressGuard } = {}): FetchLike {
  const policy: EgressPolicy = {
    ...(load.addresses ? { addresses: load.addresses } : {}),
    totalMs: loadFetchMs(requests.timeoutMs),
    allowedHosts: new Set(hosts),
    userAgent: requests.userAgent,
    timeoutMs: requests.timeoutMs,
    maxBytes: requests.maxBytes,
    env: {},
  };
  return egressFetch(policy, undefined, operation);
}
