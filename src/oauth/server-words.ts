// What an authorization server said when it refused: its `error` code and
// `error_description` (RFC 6749 sections 4.1.2.1 and 5.2, RFC 7591 section
// 3.2.2), passed on so the person sees the server's own reason. Both are the
// server's text, so they are quoted and capped; and any secret of the
// request that the server might echo (a client secret, a code, a token) is
// replaced, since these words go to the terminal and to logs.
import * as oauth from "oauth4webapi";
import { quote } from "../quote.js";

type Refusal = { error: string; error_description?: string | undefined };

/** The server's refusal carried by an oauth4webapi error, or undefined when the error is not one. */
export function refusalOf(error: unknown): Refusal | undefined {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) return error;
  return undefined;
}

/** `the server answered "invalid_client": "Client secret is required"`, with `secrets` masked. */
export function serverWords(refusal: Refusal, secrets: ReadonlyArray<string | undefined>): string {
  const mask = (text: string) => secrets.reduce<string>((t, secret) => (secret && secret.length >= 8 ? t.split(secret).join("[redacted]") : t), text);
  const description = refusal.error_description ? `: ${quote(mask(refusal.error_description))}` : "";
  return `the server answered ${quote(mask(refusal.error))}${description}`;
}
