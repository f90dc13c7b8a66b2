// Sends one attempt's hops: check the host, attach the credential only where
// it is covered, send with undici, follow a redirect by hand. Returns the
// final hop's response with its body unread but decoded as it streams
// (decode.ts), so every reader sees the bytes the API meant.
import type { Readable } from "node:stream";
import { type Dispatcher, request } from "undici";
import { StepgateError, ToolCallFailed } from "../errors.js";
import { defaultAddressGuard } from "./address-guard.js";
import { AttemptFailure, describeNetworkError } from "./attempt.js";
import { ACCEPT_ENCODING, decodeBody } from "./decode.js";
import { type Scrubber, effectivePlacement, placeCredential, scrubberFor } from "./credentials.js";
import { assertHostAllowed, credentialCovers, parseHopUrl } from "./hosts.js";
import { type Hop, MAX_REDIRECTS, isRedirect, nextHop } from "./redirects.js";
import type { CredentialPlacement, CredentialRef, CredentialSource, EgressPolicy, EgressRequest, EgressSpan } from "./types.js";

export interface Opened {
  status: number;
  headers: Record<string, string>;
  body: Readable;
  /** The final hop's URL as egress sees it: never with a query-placed credential. */
  url: URL;
  /** Whether the final hop carried the credential (a 401 then may mean "refresh"). */
  credentialSent: boolean;
  /** Removes the final hop's credential value from what it answered (headers here are already scrubbed). */
  scrub: Scrubber;
}

/** `span`, when telemetry watches, adds its trace headers to each hop bound for a host the stepfile declares, never to another. */
export async function openFollowingRedirects(req: EgressRequest, policy: EgressPolicy, source: CredentialSource, signal: AbortSignal, span?: EgressSpan): Promise<Opened> {
  const placement = req.credential ? effectivePlacement(req.credential) : undefined;
  const queryName = placement?.in === "query" ? placement.name : undefined;
  const url = parseHopUrl(req.url);
  if (queryName !== undefined) url.searchParams.delete(queryName);
  let hop: Hop = { url, method: req.method.toUpperCase(), headers: lowerCaseKeys(req.headers ?? {}), body: req.body };
  // Under the seed's exceptions the first URL is the declared one: only it may be a local address.
  const declared = req.allowAnyHost ? new Set([...policy.allowedHosts, url.host]) : policy.allowedHosts;
  const dispatcher = (policy.addresses ?? defaultAddressGuard()).dispatcher;
  for (let redirects = 0; ; redirects++) {
    assertHostAllowed(hop.url, declared, req.allowAnyHost ?? false);
    const carries = req.credential !== undefined && credentialCovers(req.credential.hosts, hop.url);
    const sent = span && policy.allowedHosts.has(hop.url.host) ? { ...hop, headers: { ...hop.headers, ...span.headers() } } : hop;
    const { res, scrub } = await sendHop(req.operation, sent, policy.userAgent, dispatcher, signal, carries ? { credential: req.credential!, placement: placement!, source } : undefined);
    const headers = scrub.headers(flattenHeaders(res.headers));
    const location = headers.location;
    if (!isRedirect(res.statusCode) || location === undefined) {
      const decoded = decodeBody(res.body, headers, { operation: req.operation, method: hop.method, status: res.statusCode, maxBytes: policy.maxBytes });
      return { status: res.statusCode, headers: decoded.headers, body: decoded.body, url: hop.url, credentialSent: carries, scrub };
    }
    await res.body.dump();
    if (redirects === MAX_REDIRECTS) throw new ToolCallFailed(req.operation, null, "", `more than ${MAX_REDIRECTS} redirects`);
    hop = nextHop(hop, res.statusCode, location, queryName);
  }
}

interface Attach {
  credential: CredentialRef;
  placement: CredentialPlacement;
  source: CredentialSource;
}

/**
 * The credential's value is read here and used for this one hop; only the
 * scrubber that removes it from the hop's answer outlives the call.
 */
/** Node's codes for a certificate chain or name it cannot verify. */
const CERTIFICATE_ERRORS = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_GET_ISSUER_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

async function sendHop(operation: string, hop: Hop, userAgent: string, dispatcher: Dispatcher, signal: AbortSignal, attach: Attach | undefined) {
  let wire = { url: hop.url, headers: hop.headers };
  let secret: string | undefined;
  if (attach) {
    secret = await attach.source.read(attach.credential);
    wire = placeCredential(hop.url, hop.headers, attach.placement, secret);
  }
  const scrub = scrubberFor(secret, attach?.placement);
  try {
    return { res: await request(wire.url, { method: hop.method as "GET", headers: { ...wire.headers, "user-agent": userAgent, "accept-encoding": ACCEPT_ENCODING }, body: hop.body ?? null, signal, dispatcher }), scrub };
  } catch (error) {
    // An abort (deadline or caller) is sorted out by runAttempt; a refused address is final.
    if (signal.aborted || error instanceof StepgateError) throw error;
    // An untrusted certificate will not become trusted on a retry: say so once, with the remedy.
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && CERTIFICATE_ERRORS.has(code)) {
      throw new ToolCallFailed(operation, null, "", `the TLS certificate of ${hop.url.host} is not trusted (${code}: ${(error as Error).message}); for an API with a private CA, start Stepgate with NODE_EXTRA_CA_CERTS=<ca.pem>`);
    }
    // undici may echo a header or the URL; scrub before the reason travels.
    throw new AttemptFailure(scrub.text(describeNetworkError(error)));
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
