// Which IP addresses are not "the internet": loopback, private, link-local,
// shared (CGNAT), unique-local, unspecified, multicast and reserved ranges,
// and IPv6 forms that carry one of those IPv4 addresses inside (IPv4-mapped,
// IPv4-compatible, NAT64, 6to4). Egress refuses a DNS name that resolves to
// one (the classic SSRF route past a name allowlist, e.g. to
// 169.254.169.254), and the authoring tools' public-URL check refuses a
// literal one. Node's BlockList does the range matching; the embedded-IPv4
// extraction is written here because no library in our set exposes it.
import { BlockList, isIP } from "node:net";

interface Range {
  list: BlockList;
  reason: string;
}

function ranges(reason: string, family: "ipv4" | "ipv6", subnets: Array<[string, number]>): Range {
  const list = new BlockList();
  for (const [address, prefix] of subnets) list.addSubnet(address, prefix, family);
  return { list, reason };
}

const V4: readonly Range[] = [
  ranges("a loopback address", "ipv4", [["127.0.0.0", 8]]),
  ranges("a private address", "ipv4", [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16]]),
  ranges("a link-local address", "ipv4", [["169.254.0.0", 16]]),
  ranges("a shared (CGNAT) address", "ipv4", [["100.64.0.0", 10]]),
  ranges("an unspecified address", "ipv4", [["0.0.0.0", 8]]),
  ranges("a multicast address", "ipv4", [["224.0.0.0", 4]]),
  // IETF protocol assignments (192.0.0.170 is NAT64 discovery), benchmarking, documentation, 240/4 and broadcast.
  ranges("a reserved address", "ipv4", [["192.0.0.0", 24], ["192.0.2.0", 24], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["240.0.0.0", 4]]),
];

const V6: readonly Range[] = [
  ranges("a loopback address", "ipv6", [["::1", 128]]),
  ranges("an unspecified address", "ipv6", [["::", 128]]),
  ranges("a private (unique-local) address", "ipv6", [["fc00::", 7]]),
  ranges("a link-local address", "ipv6", [["fe80::", 10], ["fec0::", 10]]),
  ranges("a multicast address", "ipv6", [["ff00::", 8]]),
  ranges("a local NAT64 address", "ipv6", [["64:ff9b:1::", 48]]),
  ranges("a reserved address", "ipv6", [["100::", 64], ["2001:db8::", 32]]),
];

/** IPv6 prefixes whose address carries an IPv4 address, and where it sits. */
const CARRIERS: ReadonlyArray<{ range: Range; at: number }> = [
  { range: ranges("IPv4-mapped", "ipv6", [["::ffff:0:0", 96]]), at: 6 },
  { range: ranges("NAT64", "ipv6", [["64:ff9b::", 96]]), at: 6 },
  { range: ranges("IPv4-compatible", "ipv6", [["::", 96]]), at: 6 },
  { range: ranges("6to4", "ipv6", [["2002::", 16]]), at: 1 },
];

/**
 * Why an IP address is not a public one, as "<address> is <reason>", or
 * undefined for a public address (and for anything that is not an IP).
 *
 * @example
 * addressProblem("169.254.169.254") // "169.254.169.254 is a link-local address"
 * addressProblem("::ffff:7f00:1")   // "::ffff:7f00:1 is a loopback address (IPv4-mapped 127.0.0.1)"
 */
export function addressProblem(raw: string): string | undefined {
  const address = bareAddress(raw);
  const reason = addressReason(address);
  return reason && `${address} is ${reason}`;
}

/** Without brackets or an IPv6 zone (`fe80::1%eth0`), lower-case. */
export function bareAddress(raw: string): string {
  return raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
}

/** Why an address (bare, see bareAddress) is not public: "a loopback address", ...; undefined when it is. */
export function addressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return V4.find((r) => r.list.check(address, "ipv4"))?.reason;
  if (family !== 6) return undefined;
  const hit = V6.find((r) => r.list.check(address, "ipv6"));
  if (hit) return hit.reason;
  for (const { range, at } of CARRIERS) {
    if (!range.list.check(address, "ipv6")) continue;
    const groups = ipv6Groups(address);
    const inner = [groups[at]! >> 8, groups[at]! & 0xff, groups[at + 1]! >> 8, groups[at + 1]! & 0xff].join(".");
    const innerReason = addressReason(inner);
    if (innerReason) return `${innerReason} (${range.reason} ${inner})`;
  }
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (isIP already said it is one). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const first = head === "" ? [] : head.split(":");
  const last = tail === undefined || tail === "" ? [] : tail.split(":");
  const gap = tail === undefined ? 0 : 8 - first.length - last.length;
  return [...first, ...Array<string>(gap).fill("0"), ...last].map((g) => parseInt(g, 16));
}

/** `localhost` and its subdomains (RFC 6761): this machine, whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  return host === "localhost" || host.endsWith(".localhost");
}
