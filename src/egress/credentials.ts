// Reading a credential's value and placing it on one hop. The value lives in
// a local of the hop that needs it and nowhere else.
import { CredentialUnavailable } from "../errors.js";
import type { CredentialPlacement, CredentialRef, CredentialSource } from "./types.js";

/** `catalogue-v2` -> `CATALOGUE_V2`: the prefix of every variable a credential is read from. */
export function credentialPrefix(name: string): string {
  return name.toUpperCase().replace(/-/g, "_");
}

/** `catalogue-v2` -> `CATALOGUE_V2_API_KEY` (spec section 4). */
export function credentialVariable(name: string): string {
  return `${credentialPrefix(name)}_API_KEY`;
}

/** The default source: `<NAME>_API_KEY` read at the moment of each hop. */
export function envCredentials(env: Record<string, string | undefined>): CredentialSource {
  return {
    read(credential) {
      const variable = credentialVariable(credential.name);
      const value = env[variable];
      if (value === undefined || value === "") throw new CredentialUnavailable(credential.name, variable);
      return value;
    },
  };
}

/** `basic` is always HTTP Basic and `oauth2` an access token sent as Bearer, whatever the operation's scheme says. */
export function effectivePlacement(credential: CredentialRef): CredentialPlacement {
  if (credential.kind === "basic") return { in: "basic" };
  if (credential.kind === "oauth2") return { in: "bearer" };
  return credential.placement;
}

/** Returns the wire URL and headers for one hop with the value attached. Inputs are not changed. */
export function placeCredential(
  url: URL,
  headers: Record<string, string>,
  placement: CredentialPlacement,
  value: string,
): { url: URL; headers: Record<string, string> } {
  const out = { ...headers };
  const wire = new URL(url);
  switch (placement.in) {
    case "header":
      out[placement.name.toLowerCase()] = value;
      break;
    case "query":
      wire.searchParams.set(placement.name, value);
      break;
    case "cookie": {
      const pair = `${placement.name}=${value}`;
      out.cookie = out.cookie ? `${out.cookie}; ${pair}` : pair;
      break;
    }
    case "bearer":
      out.authorization = `Bearer ${value}`;
      break;
    case "basic":
      out.authorization = `Basic ${Buffer.from(value, "utf8").toString("base64")}`;
      break;
  }
  return { url: wire, headers: out };
}

export interface Scrubber {
  text(text: string): string;
  bytes(body: Uint8Array): Uint8Array;
  headers(headers: Record<string, string>): Record<string, string>;
  /** A scrubber for a body that arrives in chunks; one per stream, since it keeps state between chunks. */
  stream(): StreamScrubber;
}

export interface StreamScrubber {
  /** Scrubbed bytes safe to pass on now. Bytes that may begin a value are held back until the next chunk shows whether they do. */
  write(chunk: Uint8Array): Buffer;
  /** The bytes still held back, once the stream has ended: they cannot complete a value any more. */
  end(): Buffer;
}

const REDACTED = Buffer.from("[redacted]");
const EMPTY = Buffer.alloc(0);

/**
 * Removes every form a credential value may take (raw, URL-encoded,
 * base64) from what a hop gives back: an API that echoes a key in an error
 * body or a header must not hand it to the client, a ledger or an error.
 * Bytes are matched as bytes, so a binary body is changed only where the
 * value itself appears.
 */
export function scrubberFor(value: string | undefined, placement?: CredentialPlacement): Scrubber {
  const secrets = value ? [value] : [];
  // A Basic `user:secret` is decoded by the API, which may quote the secret
  // part alone ("password ... is wrong"); the user name is not a secret, so
  // a value with an empty secret (`user:`, or `:` as mock servers take,
  // Redocly's museum example among them) has nothing to remove, and
  // removing `:` itself would take every colon out of a JSON answer.
  const colon = value?.indexOf(":") ?? -1;
  if (placement?.in === "basic" && value && colon >= 0) {
    if (colon === value.length - 1) secrets.length = 0;
    else secrets.push(value.slice(colon + 1));
  }
  const forms = [...new Set(secrets.flatMap((s) => [s, encodeURIComponent(s), new URLSearchParams({ v: s }).toString().slice(2), Buffer.from(s).toString("base64")]))];
  const needles = forms.map((form) => Buffer.from(form));
  const text = (t: string) => forms.reduce((acc, form) => acc.split(form).join(REDACTED.toString()), t);
  return {
    text,
    bytes(body) {
      if (needles.length === 0) return body;
      // A whole body is a stream of one chunk whose end is known.
      const scrubbing = streamScrubber(needles);
      return Buffer.concat([scrubbing.write(body), scrubbing.end()]);
    },
    headers: (headers) => (forms.length === 0 ? headers : Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, text(v)]))),
    stream: () => streamScrubber(needles),
  };
}

function streamScrubber(needles: readonly Buffer[]): StreamScrubber {
  if (needles.length === 0) return { write: (chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), end: () => EMPTY };
  // A value split across chunks ends at most this far into the next one, so
  // no more than this is ever held back.
  const maxHeld = Math.max(...needles.map((n) => n.length)) - 1;
  let held: Buffer = EMPTY;
  return {
    write(chunk) {
      const buf = Buffer.concat([held, chunk]);
      const { parts, from } = replaceMatches(buf, needles);
      // Hold back only a tail that could still grow into a value: an event
      // stream's last event must not wait for the next one to be delivered.
      const keep = heldBackLength(buf, from, needles, maxHeld);
      parts.push(buf.subarray(from, buf.length - keep));
      // A copy, so the held bytes do not pin the whole chunk in memory.
      held = Buffer.from(buf.subarray(buf.length - keep));
      return Buffer.concat(parts);
    },
    end() {
      const rest = held;
      held = EMPTY;
      return rest;
    },
  };
}

/**
 * Replaces every complete value in `buf`, leftmost first and the longest form
 * when two start together (`user:secret` over `secret`). Returns the pieces
 * before the last match's end and where that end is. Each form's next
 * position is remembered rather than searched again after every match, so a
 * body full of echoes costs one pass per form, not one per match.
 */
function replaceMatches(buf: Buffer, needles: readonly Buffer[]): { parts: Buffer[]; from: number } {
  const next = needles.map((needle) => buf.indexOf(needle));
  const parts: Buffer[] = [];
  let from = 0;
  for (;;) {
    let pick = -1;
    for (let i = 0; i < needles.length; i++) {
      // A form found inside the last replaced match is looked for again past it; -1 stays -1.
      if (next[i]! >= 0 && next[i]! < from) next[i] = buf.indexOf(needles[i]!, from);
      if (next[i]! < 0) continue;
      if (pick < 0 || next[i]! < next[pick]! || (next[i] === next[pick] && needles[i]!.length > needles[pick]!.length)) pick = i;
    }
    if (pick < 0) return { parts, from };
    parts.push(buf.subarray(from, next[pick]), REDACTED);
    from = next[pick]! + needles[pick]!.length;
  }
}

/** Length of the longest tail of `buf[from..]`, at most `maxHeld`, that is the start of some form. */
function heldBackLength(buf: Buffer, from: number, needles: readonly Buffer[], maxHeld: number): number {
  for (let k = Math.min(maxHeld, buf.length - from); k > 0; k--) {
    const tail = buf.subarray(buf.length - k);
    if (needles.some((needle) => needle.length > k && needle.subarray(0, k).equals(tail))) return k;
  }
  return 0;
}
