// The one place egress tells a watcher (EgressPolicy.trace) about a request:
// both entry points (egress, egressFetch) run their retry loop through here,
// so a request is one span whatever its retries, and the trace headers reach
// only the hops openFollowingRedirects sends to declared hosts.
import type { EgressPolicy, EgressRequest, EgressSpan } from "./types.js";

/** Runs `send` with a policy whose retries the span hears too, and the span's headers for hops (undefined when nothing watches). */
export async function traced<T extends { answer: { status: number } }>(
  request: EgressRequest,
  policy: EgressPolicy,
  send: (policy: EgressPolicy, span: EgressSpan | undefined) => Promise<T>,
): Promise<T> {
  const url = policy.trace && URL.canParse(request.url) ? new URL(request.url) : undefined;
  // An unparsable URL is refused on the way (parseHopUrl) before anything is sent: nothing to trace.
  if (!policy.trace || !url) return send(policy, undefined);
  const span = policy.trace.begin({ operation: request.operation, method: request.method.toUpperCase(), url, ...(request.route !== undefined ? { route: request.route } : {}) });
  const onRetry = policy.onRetry;
  const watched: EgressPolicy = {
    ...policy,
    onRetry: (record) => {
      span.retried(record);
      onRetry?.(record);
    },
  };
  try {
    const sent = await send(watched, span);
    span.end({ status: sent.answer.status });
    return sent;
  } catch (error) {
    span.end({ error });
    throw error;
  }
}
