// The host checks egress makes on every hop, before any socket is opened.
import { EgressDenied } from "../errors.js";

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * The only hosts the format lets a URL reach over plain http (spec section
 * 2), as URL.hostname spells them (brackets kept on [::1]). The allowlist
 * compares URL.host, which is the same for http and https on default ports,
 * so the scheme needs its own check or a redirect could downgrade a declared
 * https host to plaintext.
 */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https anywhere, or http to a loopback host, where nothing crosses a network. */
export function isProtectedTransport(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTNAMES.has(url.hostname));
}

/** EgressDenied for a declared host reached over plain http: same type for callers, a message that says why. */
class PlainHttpDenied extends EgressDenied {
  constructor(url: URL) {
    super(url.host, withoutQuery(url));
    this.message = `request to ${withoutQuery(url)} refused: plain http:// is allowed only for localhost, 127.0.0.1 and [::1]`;
  }
}

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

/**
 * Throws EgressDenied unless the URL's host is declared (or the request is
 * one of the seed's exceptions) and its scheme is one the format allows for
 * that host. The scheme rule holds for the exceptions too: they follow
 * redirects like any request.
 */
export function assertHostAllowed(url: URL, allowedHosts: ReadonlySet<string>, allowAnyHost: boolean): void {
  if (!isProtectedTransport(url)) throw new PlainHttpDenied(url);
  if (allowAnyHost || allowedHosts.has(url.host)) return;
  throw new EgressDenied(url.host, withoutQuery(url));
}

/**
 * Whether a credential may ride on a request to this URL. Entries are
 * "host" or "host:port"; "api.example.com:443" also matches an https URL
 * whose URL.host omits the default port. Never over plain http to a
 * non-loopback host, even if a caller skipped assertHostAllowed: "host"
 * alone does not say which scheme the value was meant for.
 */
export function credentialCovers(hosts: readonly string[], url: URL): boolean {
  if (!isProtectedTransport(url)) return false;
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
