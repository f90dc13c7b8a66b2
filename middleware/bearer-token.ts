// Who may use a running Stepgate over HTTP. The loopback guards keep web
// pages and other machines out, but any local process (another user on a
// shared machine, a container on the host network) could start runs that
// spend the operator's credentials. With a token set, every request must
// carry `Authorization: Bearer <token>`; anything else is 401 before the
// body is read or the session store is touched.
//
// Hono's bearerAuth parses the header (the scheme case-insensitively, a
// token68 value) and builds the challenge; the comparison is hono's
// timingSafeEqual (hashes compared in constant time), named here so a test
// can see it is the one used. Every refusal is 401 with `WWW-Authenticate:
// Bearer ...` and a JSON-RPC body (thrown as an HTTPException, whose
// response src/http/app.ts sends), including a malformed header or another
// scheme (bearerAuth alone would answer those 400): to the client, each
// means the same thing, that this server wants a bearer token.
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { timingSafeEqual } from "hono/utils/buffer";
import { jsonRpcErrorBody, JsonRpcCode } from "./json-rpc-error.js";

export interface BearerTokenOptions {
  /** The one token accepted. */
  token: string;
  /** The realm named in the challenge; default "stepgate". */
  realm?: string;
}

/** What a token may look like in an Authorization header (RFC 6750's b64token), as bearerAuth reads it. */
export const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

const sha256 = (value: string | object | boolean) => createHash("sha256").update(String(value)).digest("hex");

/**
 * Refuses (401) every request that does not carry `Authorization: Bearer <token>`.
 *
 * @example
 * app.use(bearerToken({ token: readFileSync(tokenFile, "utf8").trim() }));
 */
export function bearerToken(options: BearerTokenOptions): MiddlewareHandler {
  if (!BEARER_TOKEN.test(options.token)) throw new Error("a bearer token is letters, digits and -._~+/ (then optional =)");
  const realm = options.realm ?? "stepgate";
  // A Response as the message sets the status (401 for every case) and the body; bearerAuth adds the challenge.
  const refuse = (message: string) => () => new Response(jsonRpcErrorBody(JsonRpcCode.Refused, message), { status: 401, headers: { "content-type": "application/json" } });
  const missing = `Bearer realm="${realm}"`;
  return bearerAuth({
    verifyToken: (given) => timingSafeEqual(options.token, given, sha256),
    noAuthenticationHeader: { wwwAuthenticateHeader: missing, message: refuse("Unauthorized: this server requires Authorization: Bearer <token>") },
    invalidAuthenticationHeader: { wwwAuthenticateHeader: missing, message: refuse("Unauthorized: this server requires Authorization: Bearer <token>") },
    invalidToken: { wwwAuthenticateHeader: `Bearer realm="${realm}", error="invalid_token"`, message: refuse("Unauthorized: the bearer token is not this server's") },
  });
}
