// Reading a credential's value and placing it on one hop. The value lives in
// a local of the hop that needs it and nowhere else.
import { CredentialUnavailable } from "../errors.js";
import type { CredentialPlacement, CredentialRef, CredentialSource } from "./types.js";

/** `catalogue-v2` -> `CATALOGUE_V2_API_KEY` (spec section 4). */
export function credentialVariable(name: string): string {
  return `${name.toUpperCase().replace(/-/g, "_")}_API_KEY`;
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

/** Replaces every form the value may take in text (raw, URL-encoded, base64) before it leaves egress. */
export function redact(text: string, value: string | undefined): string {
  if (!value) return text;
  const forms = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), Buffer.from(value).toString("base64")];
  return forms.reduce((t, form) => (form ? t.split(form).join("[redacted]") : t), text);
}
