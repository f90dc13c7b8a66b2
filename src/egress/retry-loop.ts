// The retry loop both entry points share (egress and egressFetch): decide
// from each attempt's answer or failure whether to try again, report the
// wait, sleep, and stop after MAX_ATTEMPTS, or sooner when the request has a
// bound in all (EgressPolicy.totalMs, a fetch made while loading or checking)
// and the next wait would pass it: the seed's retries run inside that bound,
// never past it. A failure after more than one attempt says how many were
// sent, in the words every failed call uses (src/attempts.ts).
import { afterAttempts, attemptsThen } from "../attempts.js";
import { ToolCallFailed } from "../errors.js";
import { AttemptFailure } from "./attempt.js";
import { MAX_ATTEMPTS, MAX_WAIT_MS, backoffMs, requestedWaitMs, shouldRetryStatus } from "./retry-policy.js";
import type { CredentialRef, CredentialSource, EgressPolicy } from "./types.js";

/** What an answered attempt gives the loop. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  credentialSent: boolean;
  /** Frees the answer being dropped for a retry; returns its body text for an error. */
  release(): string;
}

export interface RetryContext {
  operation: string;
  retrySafe: boolean;
  policy: EgressPolicy;
  credential: CredentialRef | undefined;
  source: CredentialSource;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Returns the last answer (any status) and how many attempts were sent; throws ToolCallFailed for failures.
 * `attempt` is given the deadline of that attempt: --request-timeout-ms, or less when the bound in all is nearer.
 */
export async function withRetries<A extends Answer>(ctx: RetryContext, attempt: (timeoutMs: number) => Promise<A>): Promise<{ answer: A; attempts: number }> {
  const sleep = ctx.policy.sleep ?? realSleep;
  const bound = totalBound(ctx.policy.totalMs);
  let attempts = 0;
  let refreshed = false;
  for (let failed = 1; ; failed++) {
    let answer: A;
    try {
      attempts++;
      answer = await attempt(Math.min(ctx.policy.timeoutMs, bound.leftMs()));
    } catch (error) {
      if (!(error instanceof AttemptFailure)) throw error;
      // A POST/PATCH may have taken effect before the connection broke.
      if (!ctx.retrySafe || failed === MAX_ATTEMPTS) throw new ToolCallFailed(ctx.operation, null, "", afterAttempts(error.reason, attempts));
      const wait = backoffMs(failed);
      // The count follows what the last attempt met, before why no other follows.
      if (!bound.fits(wait)) throw new ToolCallFailed(ctx.operation, null, "", `${afterAttempts(error.reason, attempts)}; ${bound.spent()}`);
      await pause(ctx, sleep, failed, null, wait);
      continue;
    }
    if (answer.status === 401 && answer.credentialSent && !refreshed && (await ctx.source.rejected?.(ctx.credential!))) {
      // The seed: refresh on 401 and send once more; not one of the four retries.
      refreshed = true;
      answer.release();
      failed--;
      continue;
    }
    if (!shouldRetryStatus(answer.status, answer.headers, ctx.retrySafe)) return { answer, attempts };
    const asked = requestedWaitMs(answer.headers, Date.now());
    // A wait the server asks for is never cut short (it would only be asked
    // again), so one past the seed's 60 s, or past the bound in all, ends the
    // request now; the error names whichever of the two is the nearer.
    if (asked !== undefined && (asked > MAX_WAIT_MS || !bound.fits(asked))) {
      const limit = bound.fits(MAX_WAIT_MS) ? `${MAX_WAIT_MS / 1000} s` : bound.whole();
      const why = `the API asked to wait ${Math.ceil(asked / 1000)} s, more than ${limit}`;
      throw new ToolCallFailed(ctx.operation, answer.status, answer.release(), attemptsThen(why, attempts));
    }
    const wait = asked ?? backoffMs(failed);
    // No time for another attempt: this answer is the last, as after the last attempt.
    if (failed === MAX_ATTEMPTS || !bound.fits(wait)) return { answer, attempts };
    answer.release();
    await pause(ctx, sleep, failed, answer.status, wait);
  }
}

interface Bound {
  /** Time left before the bound, in ms (Infinity without one; at least 1, so an attempt still gets a deadline). */
  leftMs(): number;
  /** Whether waiting `ms` still leaves time for another attempt. */
  fits(ms: number): boolean;
  /** "the N s this fetch may take in all", for errors. */
  whole(): string;
  /** Why no retry follows a failure: the bound is spent. */
  spent(): string;
}

function totalBound(totalMs: number | undefined): Bound {
  if (totalMs === undefined) return { leftMs: () => Infinity, fits: () => true, whole: () => "", spent: () => "" };
  const endsAt = Date.now() + totalMs;
  const whole = () => `the ${Math.round(totalMs / 100) / 10} s this fetch may take in all`;
  return {
    leftMs: () => Math.max(1, endsAt - Date.now()),
    fits: (ms) => Date.now() + ms < endsAt,
    whole,
    spent: () => `not enough time is left of ${whole()} to try again`,
  };
}

/** The retry record goes out before the wait, so a ledger shows why a call is slow. */
async function pause(ctx: RetryContext, sleep: (ms: number) => Promise<void>, attempt: number, status: number | null, waitMs: number): Promise<void> {
  ctx.policy.onRetry?.({ operation: ctx.operation, attempt, status, waitMs });
  await sleep(waitMs);
}
