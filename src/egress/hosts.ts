// The host checks egress makes on every hop, before any socket is opened.
import { EgressDenied } from "../errors.js";
import { addressProblem, isLocalhostName } from "./addresses.js";

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
  // `api.example.com.` is `api.example.com`: one spelling for every check (WHATWG URL already folds 2130706433, 0x7f.1 and 127.1 to 127.0.0.1).
  if (url.hostname.endsWith(".")) url.hostname = url.hostname.replace(/\.+$/, "");
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
  const declared = isDeclared(url, allowedHosts);
  if (!declared && allowAnyHost && isLocalHost(url.hostname)) throw new LocalHostDenied(url);
  if (declared || allowAnyHost) return;
  throw new EgressDenied(url.host, withoutQuery(url));
}

/** Declared hosts compared in the hop's spelling: without trailing dots. */
function isDeclared(url: URL, allowedHosts: ReadonlySet<string>): boolean {
  if (allowedHosts.has(url.host)) return true;
  for (const host of allowedHosts) if (host.replace(/\.+(?=(:\d+)?$)/, "") === url.host) return true;
  return false;
}

/** localhost, or an IP literal that is loopback, private, link-local or otherwise not public. */
function isLocalHost(hostname: string): boolean {
  return isLocalhostName(hostname) || addressProblem(hostname) !== undefined;
}

/** A redirect under the seed's exceptions to a local address nobody declared. */
class LocalHostDenied extends EgressDenied {
  constructor(url: URL) {
    super(url.host, withoutQuery(url));
    this.message = `request to ${withoutQuery(url)} refused: ${addressProblem(url.hostname) ?? `${url.hostname} is this machine`}, and no tool declares it`;
  }
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
