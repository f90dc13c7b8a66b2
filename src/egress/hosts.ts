// The host checks egress makes on every hop, before any socket is opened.
import { EgressDenied } from "../errors.js";

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * Parses a hop's URL and refuses anything but http(s). User info is dropped:
 * secrets travel only through a CredentialRef, where their hosts are known.
 */
export function parseHopUrl(raw: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new EgressDenied("(unparsable URL)");
  }
  if (!(url.protocol in DEFAULT_PORTS)) throw new EgressDenied(url.host || url.protocol, withoutQuery(url));
  url.username = "";
  url.password = "";
  return url;
}

/** Throws EgressDenied unless the URL's host is declared (or the request is one of the seed's exceptions). */
export function assertHostAllowed(url: URL, allowedHosts: ReadonlySet<string>, allowAnyHost: boolean): void {
  if (allowAnyHost || allowedHosts.has(url.host)) return;
  throw new EgressDenied(url.host, withoutQuery(url));
}

/**
 * Whether a credential may ride on a request to this URL. Entries are
 * "host" or "host:port"; "api.example.com:443" also matches an https URL
 * whose URL.host omits the default port.
 */
export function credentialCovers(hosts: readonly string[], url: URL): boolean {
  const port = url.port || DEFAULT_PORTS[url.protocol];
  const withPort = `${url.hostname}:${port}`;
  return hosts.some((entry) => {
    const h = entry.toLowerCase();
    return h === url.host || h === withPort;
  });
}

/** Error details carry the URL without its query, which may hold arguments or a key. */
function withoutQuery(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
