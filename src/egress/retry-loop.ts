// The retry loop both entry points share (egress and egressFetch): decide
// from each attempt's answer or failure whether to try again, report the
// wait, sleep, and stop after MAX_ATTEMPTS.
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

/** Returns the last answer (any status) and how many attempts were sent; throws ToolCallFailed for failures. */
export async function withRetries<A extends Answer>(ctx: RetryContext, attempt: () => Promise<A>): Promise<{ answer: A; attempts: number }> {
  const sleep = ctx.policy.sleep ?? realSleep;
  let attempts = 0;
  let refreshed = false;
  for (let failed = 1; ; failed++) {
    let answer: A;
    try {
      attempts++;
      answer = await attempt();
    } catch (error) {
      if (!(error instanceof AttemptFailure)) throw error;
      // A POST/PATCH may have taken effect before the connection broke.
      if (!ctx.retrySafe || failed === MAX_ATTEMPTS) throw new ToolCallFailed(ctx.operation, null, "", error.reason);
      await pause(ctx, sleep, failed, null, backoffMs(failed));
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
    if (asked !== undefined && asked > MAX_WAIT_MS) {
      throw new ToolCallFailed(ctx.operation, answer.status, answer.release(), `the API asked to wait ${Math.ceil(asked / 1000)} s, more than ${MAX_WAIT_MS / 1000} s`);
    }
    if (failed === MAX_ATTEMPTS) return { answer, attempts };
    answer.release();
    await pause(ctx, sleep, failed, answer.status, asked ?? backoffMs(failed));
  }
}

/** The retry record goes out before the wait, so a ledger shows why a call is slow. */
async function pause(ctx: RetryContext, sleep: (ms: number) => Promise<void>, attempt: number, status: number | null, waitMs: number): Promise<void> {
  ctx.policy.onRetry?.({ operation: ctx.operation, attempt, status, waitMs });
  await sleep(waitMs);
}
