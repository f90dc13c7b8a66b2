// What "public https" means for drafts and inspection (server.md, Draft
// rules): decided from the host name alone, before any request, so a draft
// or an inspected URL cannot aim Stepgate at the operator's own machine or
// network. Names are not resolved: the check is about what the author wrote.
import { BlockList, isIP } from "node:net";

/** Says why a URL is not public https, or undefined when it is. */
export type PublicUrlCheck = (url: URL) => string | undefined;

// node's BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the
// IPv4 ranges too, which hand-written prefix checks tend to miss.
const refused: Array<{ list: BlockList; reason: string }> = [
  ranges("a loopback address", [["127.0.0.0", 8, "ipv4"], ["::1", 128, "ipv6"]]),
  ranges("a private address", [["10.0.0.0", 8, "ipv4"], ["172.16.0.0", 12, "ipv4"], ["192.168.0.0", 16, "ipv4"], ["fc00::", 7, "ipv6"]]),
  ranges("a link-local address", [["169.254.0.0", 16, "ipv4"], ["fe80::", 10, "ipv6"]]),
  ranges("an unspecified address", [["0.0.0.0", 8, "ipv4"], ["::", 128, "ipv6"]]),
];

function ranges(reason: string, subnets: Array<[string, number, "ipv4" | "ipv6"]>) {
  const list = new BlockList();
  for (const [address, prefix, family] of subnets) list.addSubnet(address, prefix, family);
  return { list, reason };
}

/** Why a host name (as URL.hostname gives it) is not public, or undefined. */
export function hostProblem(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.+$/, "");
  // An empty label (`a..b`, `localhost..`) is not a name a resolver should be asked about.
  if (host === "" || host.split(".").some((label) => label === "")) return `${hostname} has an empty label`;
  if (host === "localhost" || host.endsWith(".localhost")) return "localhost is this machine";
  const family = isIP(host);
  if (family !== 0) {
    const type = family === 4 ? "ipv4" : "ipv6";
    const hit = refused.find((r) => r.list.check(host, type));
    return hit ? `${host} is ${hit.reason}` : undefined;
  }
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
