// oauth4webapi makes its requests through Stepgate's egress (customFetch),
// so OAuth traffic gets the same host checks, User-Agent, deadline and byte
// cap as every other request. None of these requests carries a
// CredentialRef: secrets the token endpoint needs travel in the form body,
// to the one host the stepfile fixed in `token_url`.
import * as oauth from "oauth4webapi";
import { egressFetch, type EgressPolicy, type FetchLike } from "../egress/index.js";

/** oauth4webapi refuses http:// unless told; the format allows it only for loopback hosts, and so do we. */
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK.has(url.hostname);
}

export interface ViaEgress {
  [oauth.customFetch]: FetchLike;
  [oauth.allowInsecureRequests]?: boolean;
}

/**
 * Options for one oauth4webapi call: egress as its fetch, limited to
 * `hosts`. `target` decides whether plain http is allowed (loopback only).
 */
export function viaEgress(base: EgressPolicy, hosts: Iterable<string>, operation: string, target: URL): ViaEgress {
  const policy: EgressPolicy = { ...base, allowedHosts: new Set(hosts) };
  return {
    [oauth.customFetch]: egressFetch(policy, undefined, operation),
    ...(isLoopbackHttp(target) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}
