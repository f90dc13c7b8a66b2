// What "public https" means for drafts and inspection (server.md, Draft
// rules): decided from the URL as written, before any request, so a draft
// or an inspected URL cannot aim Stepgate at the operator's own machine or
// network. Literal addresses are judged by egress's own classifier; a name
// is resolved when egress connects, and refused there (EgressDenied naming
// the host and address) if it resolves to a private address.
import { isIP } from "node:net";
import { addressProblem, isLocalhostName } from "../egress/addresses.js";

/** Says why a URL is not public https, or undefined when it is. */
export type PublicUrlCheck = (url: URL) => string | undefined;

/** Why a host name (as URL.hostname gives it) is not public, or undefined. */
export function hostProblem(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.+$/, "");
  // An empty label (`a..b`, `localhost..`) is not a name a resolver should be asked about.
  if (host === "" || host.split(".").some((label) => label === "")) return `${hostname} has an empty label`;
  if (isLocalhostName(host)) return "localhost is this machine";
  if (isIP(host) !== 0) return addressProblem(host);
  if (!host.includes(".")) return `${host} is a name without a dot (a local name)`;
  return undefined;
}

/** The hosts the format lets a tool reach over plain http:// (this machine). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The real check: https, and a host that is not loopback, private, link-local
 * or local. Plain http:// to this machine is refused here too, but in words
 * that do not say it never works: a --draft-host grant lets drafts reach it.
 */
export const publicHttpsUrl: PublicUrlCheck = (url) => {
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) {
    return `${url.hostname} is this machine, which drafts reach (over http:// too) only once the operator grants it with --draft-host ${url.hostname}:${url.port || "80"}`;
  }
  if (url.protocol !== "https:") return `it uses ${url.protocol}// (a draft reaches public hosts over https:// only; plain http:// only on localhost, 127.0.0.1 and [::1], once granted with --draft-host)`;
  return hostProblem(url.hostname);
};

/** Parses and checks a URL in one go; a string that is not a URL is not public either. */
export function urlProblem(raw: string, check: PublicUrlCheck): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "it is not an absolute URL";
  }
  return check(url);
}
