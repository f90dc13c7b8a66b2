// Connecting only to addresses that were checked. A declared DNS name whose
// answer is a private address (127.0.0.1, 10.x, 169.254.169.254, fd00::...)
// is refused, and the check sits inside the socket's own `lookup`: undici
// connects to exactly the address that was checked, so a second DNS answer
// cannot swap it for another (no rebinding window between check and use).
// IP literals never reach a lookup: the host allowlist already requires them
// to be declared (hosts.ts), which is the author's explicit choice.
import dns from "node:dns";
import type { LookupAddress, LookupOptions } from "node:dns";
import { Agent, type Dispatcher } from "undici";
import { EgressDenied } from "../errors.js";
import { addressReason, bareAddress, isLocalhostName } from "./addresses.js";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a name resolves to. Tests inject one; the default asks the system resolver. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Read through the `dns` object at call time, so a test preload can stand in for DNS. */
export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface AddressGuard {
  /** The undici dispatcher every hop is sent with. */
  readonly dispatcher: Dispatcher;
}

export interface AddressGuardOptions {
  resolve?: Resolver;
  /**
   * Names the operator allows to resolve to private addresses
   * (`--allow-private-host`, for self-hosted APIs). Each is one host name;
   * there is no switch that turns the check off.
   */
  allowPrivateHosts?: Iterable<string>;
}

/** A name that resolves to a private address, refused with the host and the address. */
export class PrivateAddressDenied extends EgressDenied {
  constructor(host: string, address: string, reason: string) {
    super(host);
    this.message = `request to ${host} refused: it resolves to ${address}, ${reason}; if this is your own API, start Stepgate with --allow-private-host ${host}`;
    this.details.address = address;
  }
}

/**
 * @example
 * const policy = { ...base, addresses: addressGuard({ allowPrivateHosts: ["tracker.internal.example"] }) };
 */
export function addressGuard(options: AddressGuardOptions = {}): AddressGuard {
  const resolve = options.resolve ?? systemResolver;
  const allowed = new Set([...(options.allowPrivateHosts ?? [])].map(normaliseName));
  const lookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    checkedAddresses(hostname, resolve, allowed).then(
      (addresses) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? addresses.filter((a) => a.family === lookupOptions.family) : addresses;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${String(lookupOptions.family)} address`), { code: "ENOTFOUND" }), "", 0);
        if (lookupOptions.all) return callback(null, wanted, 0);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: Error) => callback(error, "", 0),
    );
  };
  return { dispatcher: new Agent({ connect: { lookup } }) };
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family: number) => void;

async function checkedAddresses(hostname: string, resolve: Resolver, allowed: ReadonlySet<string>): Promise<ResolvedAddress[]> {
  const addresses = await resolve(hostname);
  const name = normaliseName(hostname);
  // localhost is this machine by definition (RFC 6761); hosts.ts only lets it through when declared.
  if (isLocalhostName(name) || allowed.has(name)) return addresses;
  for (const { address } of addresses) {
    const reason = addressReason(bareAddress(address));
    if (reason) throw new PrivateAddressDenied(name, address, reason);
  }
  return addresses;
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\.+$/, "");
}

let shared: AddressGuard | undefined;

/** The guard for a policy that names none: the system resolver, no private names. */
export function defaultAddressGuard(): AddressGuard {
  return (shared ??= addressGuard());
}
