// The one path every outgoing request of a run takes (design.md layer 4).
import { envCredentials } from "./credentials.js";
import { runAttempt } from "./attempt.js";
import { openFollowingRedirects } from "./follow-redirects.js";
import { errorBodyText, readCapped } from "./read-body.js";
import { isRetrySafeMethod } from "./retry-policy.js";
import { type Answer, type RetryContext, withRetries } from "./retry-loop.js";
import { traced } from "./traced.js";
import type { CredentialSource, EgressPolicy, EgressRequest, EgressResponse } from "./types.js";

/**
 * Sends a request with the host allowlist checked on every redirect hop, the
 * credential attached only to its hosts, a User-Agent, a deadline covering
 * the body, a byte cap and the seed's retries (inside `policy.totalMs`, when set). Non-2xx answers are returned,
 * not thrown: the caller turns them into error results.
 *
 * @example
 * const res = await egress(
 *   { operation: "getItem", method: "GET", url: "https://api.example.com/items/K-1", credential },
 *   { allowedHosts: new Set(["api.example.com"]), userAgent: userAgent("0.1.0"), timeoutMs: 60_000, maxBytes: 10_485_760, env: process.env },
 * );
 */
export async function egress(request: EgressRequest, policy: EgressPolicy): Promise<EgressResponse> {
  assertNoCredentialWithAnyHost(request);
  const started = performance.now();
  const { answer, attempts } = await traced(request, policy, (watched, span) => {
    const ctx = retryContext(request, watched);
    return withRetries(ctx, (timeoutMs) =>
      runAttempt(timeoutMs, null, async (signal): Promise<Answer & { body: Uint8Array; url: URL }> => {
        const opened = await openFollowingRedirects(request, policy, ctx.source, signal, span);
        const body = opened.scrub.bytes(await readCapped(opened.body, opened.headers["content-length"], policy.maxBytes, request.operation));
        return { ...opened, body, release: () => errorBodyText(body) };
      }),
    );
  });
  return {
    status: answer.status,
    headers: answer.headers,
    body: answer.body,
    url: answer.url.href,
    host: answer.url.host,
    durationMs: performance.now() - started,
    attempts,
  };
}

export function retryContext(request: EgressRequest, policy: EgressPolicy): RetryContext {
  return {
    operation: request.operation,
    retrySafe: request.retrySafe ?? isRetrySafeMethod(request.method),
    policy,
    credential: request.credential,
    source: credentialSource(policy),
  };
}

export function credentialSource(policy: EgressPolicy): CredentialSource {
  return policy.credentials ?? envCredentials(policy.env);
}

/** The host-check exceptions exist for requests that carry no secret; a caller mixing them is a bug. */
export function assertNoCredentialWithAnyHost(request: EgressRequest): void {
  if (request.allowAnyHost && request.credential) {
    throw new TypeError(`${request.operation}: allowAnyHost is only for requests without a credential`);
  }
}
