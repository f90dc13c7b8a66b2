// The egress policy of inspection: no credential source at all, and only the
// hosts already judged public, so a redirect to any other host (a private
// one included) is refused by egress rather than followed.
import { egressFetch, type EgressPolicy, type FetchLike } from "../egress/index.js";
import type { AuthoringOptions } from "./options.js";

export function inspectFetch(requests: AuthoringOptions["requests"], hosts: Iterable<string>, operation: string): FetchLike {
  const policy: EgressPolicy = {
    allowedHosts: new Set(hosts),
    userAgent: requests.userAgent,
    timeoutMs: requests.timeoutMs,
    maxBytes: requests.maxBytes,
    env: {},
  };
  return egressFetch(policy, undefined, operation);
}
