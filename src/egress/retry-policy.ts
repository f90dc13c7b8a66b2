// When to retry and how long to wait (the seed's Retries section), as pure
// functions of a response so they can be tested without a server. Written
// here rather than taken from a retry library because the rules (GitHub's
// 403, the 60 s ceiling, no retry of a POST) are Stepgate's own.

/** Four retries: five attempts in all. */
export const MAX_ATTEMPTS = 5;
/** A server asking for a longer wait ends the call instead. */
export const MAX_WAIT_MS = 60_000;
export const FIRST_BACKOFF_MS = 500;

const RETRY_SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export function isRetrySafeMethod(method: string): boolean {
  return RETRY_SAFE_METHODS.has(method.toUpperCase());
}

/** GitHub answers a rate limit with 403 plus these headers. */
function isRateLimited403(headers: Record<string, string>): boolean {
  return headers["x-ratelimit-remaining"] === "0" || headers["retry-after"] !== undefined;
}

/** Whether an answered attempt is worth another try. */
export function shouldRetryStatus(status: number, headers: Record<string, string>, retrySafe: boolean): boolean {
  if (status === 429) return true;
  if (status === 403) return isRateLimited403(headers);
  return status >= 500 && status <= 599 && retrySafe;
}

/**
 * The wait the server asked for, in ms: `Retry-After` (seconds or an HTTP
 * date), else, when nothing remains, `x-ratelimit-reset` (epoch seconds, as
 * GitHub sends it) or `ratelimit-reset` (seconds from now: the IETF httpapi
 * drafts' RateLimit-Reset, draft-ietf-httpapi-ratelimit-headers-06 section 3.3,
 * which PagerDuty sends, for one). Undefined when it said nothing usable.
 */
export function requestedWaitMs(headers: Record<string, string>, nowMs: number): number | undefined {
  const retryAfter = headers["retry-after"]?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const reset = headers["x-ratelimit-reset"]?.trim();
  if (headers["x-ratelimit-remaining"] === "0" && reset && /^\d+$/.test(reset)) {
    return Math.max(0, Number(reset) * 1000 - nowMs);
  }
  const resetIn = headers["ratelimit-reset"]?.trim();
  if (headers["ratelimit-remaining"]?.trim() === "0" && resetIn && /^\d+$/.test(resetIn)) return Number(resetIn) * 1000;
  return undefined;
}

/** 500, 1000, 2000, 4000 ms for the retries after attempts 1 to 4. */
export function backoffMs(failedAttempt: number): number {
  return FIRST_BACKOFF_MS * 2 ** (failedAttempt - 1);
}
