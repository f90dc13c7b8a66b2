// The egress policy of inspection: no credential source at all, and only the
// hosts already judged public, so a redirect to any other host (a private
// one included) is refused by egress rather than followed.
import type { AddressGuard } from "../egress/address-guard.js";
import { egressFetch, type EgressPolicy, type FetchLike } from "../egress/index.js";
import type { AuthoringOptions } from "./options.js";

/** `addresses`: the operator's --allow-private-host guard, where a CLI mode has one (--from-arazzo); else egress's default. */
export function inspectFetch(requests: AuthoringOptions["requests"], hosts: Iterable<string>, operation: string, addresses?: AddressGuard): FetchLike {
  const policy: EgressPolicy = {
    ...(addresses ? { addresses } : {}),
    allowedHosts: new Set(hosts),
    userAgent: requests.userAgent,
    timeoutMs: requests.timeoutMs,
    maxBytes: requests.maxBytes,
    env: {},
  };
  return egressFetch(policy, undefined, operation);
}
