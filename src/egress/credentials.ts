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
}

const REDACTED = "[redacted]";

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
  // part alone ("password ... is wrong"); the user name is not a secret.
  const colon = value?.indexOf(":") ?? -1;
  if (placement?.in === "basic" && value && colon >= 0 && colon < value.length - 1) secrets.push(value.slice(colon + 1));
  const forms = [...new Set(secrets.flatMap((s) => [s, encodeURIComponent(s), new URLSearchParams({ v: s }).toString().slice(2), Buffer.from(s).toString("base64")]))];
  const text = (t: string) => forms.reduce((acc, form) => acc.split(form).join(REDACTED), t);
  return {
    text,
    bytes(body) {
      let out = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      for (const form of forms) out = replaceBytes(out, Buffer.from(form), Buffer.from(REDACTED));
      return out;
    },
    headers: (headers) => (forms.length === 0 ? headers : Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, text(v)]))),
  };
}

function replaceBytes(haystack: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  let at = haystack.indexOf(needle);
  if (at < 0) return haystack;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(haystack.subarray(from, at), replacement);
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  parts.push(haystack.subarray(from));
  return Buffer.concat(parts);
}
