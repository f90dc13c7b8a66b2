// Redirects are followed here, one hop at a time, so that the host check and
// the credential scoping run again on every hop (undici 7's redirect
// interceptor has no per-hop hook).
import { parseHopUrl } from "./hosts.js";

/** At most this many redirects per attempt; one more is a ToolCallFailed. */
export const MAX_REDIRECTS = 10;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers a caller may have set that authenticate it; they never cross to another host. */
const AUTH_HEADERS = ["authorization", "cookie", "proxy-authorization"];
/** Headers that describe a body; they go when a redirect drops the body. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location", "transfer-encoding"];

export interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The next hop after a redirect. `queryCredential` names a query-placed
 * credential: a Location that echoes it must not carry it further (it is put
 * back only if the next host is covered).
 */
export function nextHop(current: Hop, status: number, location: string, queryCredential: string | undefined): Hop {
  const url = parseHopUrl(location, current.url);
  if (queryCredential !== undefined) url.searchParams.delete(queryCredential);
  const headers = { ...current.headers };
  if (url.host !== current.url.host) for (const name of AUTH_HEADERS) delete headers[name];
  // 307/308 keep method and body; 301/302/303 become a GET without a body.
  const keep = status === 307 || status === 308 || current.method === "GET" || current.method === "HEAD";
  if (keep) return { url, method: current.method, headers, body: current.body };
  for (const name of BODY_HEADERS) delete headers[name];
  return { url, method: "GET", headers, body: undefined };
}
