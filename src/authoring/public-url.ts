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

/** The real check: https, and a host that is not loopback, private, link-local or local. */
export const publicHttpsUrl: PublicUrlCheck = (url) => {
  if (url.protocol !== "https:") return `it uses ${url.protocol}// (only https:// is allowed)`;
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
