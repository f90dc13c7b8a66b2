// The egress policy of inspection: no credential source at all, and only the
// hosts already judged public, so a redirect to any other host (a private
// one included) is refused by egress rather than followed.
import type { AddressGuard } from "../egress/address-guard.js";
import { egressFetch, type EgressPolicy, type FetchLike } from "../egress/index.js";
import type { AuthoringOptions } from "./options.js";

/**
 * `load`, for a fetch made while loading (an Arazzo source description):
 * the operator's --allow-private-host guard, where a CLI mode has one
 * (else egress's default), and the bound in all (src/limits.ts loadFetchMs).
 */
export function inspectFetch(requests: AuthoringOptions["requests"], hosts: Iterable<string>, operation: string, load: { addresses?: AddressGuard; totalMs?: number } = {}): FetchLike {
  const policy: EgressPolicy = {
    ...(load.addresses ? { addresses: load.addresses } : {}),
    ...(load.totalMs !== undefined ? { totalMs: load.totalMs } : {}),
    allowedHosts: new Set(hosts),
    userAgent: requests.userAgent,
    timeoutMs: requests.timeoutMs,
    maxBytes: requests.maxBytes,
    env: {},
  };
  return egressFetch(policy, undefined, operation);
}
