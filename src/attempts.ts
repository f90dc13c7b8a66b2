// How a failed call says it was sent more than once: "after N attempts".
// One wording for every place a person or an agent reads a failure: a call
// that got no answer at all after the retries (egress's retry loop,
// src/egress/retry-loop.ts: a network error or a missed deadline on every
// try, or an API that, answered again, asks to wait too long), a mechanical
// step's ToolCallFailed over an API's error answer (src/engine/mechanical.ts,
// from CallOutcome.attempts), the error result of an agent's stepgate_call
// (src/engine/run.ts), a remote MCP tool's HTTP error after retries
// (src/tools/mcp-tool.ts), a pinned document's failed fetch
// (src/tools/openapi-tool.ts); and read back where an error text is
// replayed (src/offline/recorded-error.ts). A call sent once names no count,
// so its failure reads as it always did. It sits at the top of the layers,
// beside errors.ts, so egress can say it too without importing the engine,
// which calls it.

/** `after N attempts` when the call was sent more than once; undefined otherwise, or when the tool does not count. */
export function attemptsMade(attempts: number | undefined): string | undefined {
  return attempts !== undefined && attempts > 1 ? `after ${attempts} attempts` : undefined;
}

/**
 * A failure's reason with the attempts said after it: `network error: ...,
 * after 5 attempts`; the reason alone after one attempt.
 *
 * @example
 * afterAttempts("no complete response within 300 ms", 5) // "no complete response within 300 ms, after 5 attempts"
 */
export function afterAttempts(reason: string, attempts: number | undefined): string {
  const said = attemptsMade(attempts);
  return said === undefined ? reason : `${reason}, ${said}`;
}

/**
 * A reason that follows an answered status, with the attempts said first, as
 * withAttemptsMade puts them right after the status:
 * `HTTP 503, after 2 attempts, the API asked to wait 120 s, ...`; the reason
 * alone after one attempt.
 */
export function attemptsThen(reason: string, attempts: number | undefined): string {
  const said = attemptsMade(attempts);
  return said === undefined ? reason : `${said}, ${reason}`;
}

/**
 * An API error's text, `HTTP <status>: <body>` (or `HTTP <status>`), with
 * the attempts said after the status as ToolCallFailed says a reason:
 * `HTTP 500, after 5 attempts: <body>`, so the text still starts with the
 * status and ends with the body. Any other text is returned as it is.
 */
export function withAttemptsMade(text: string, attempts: number | undefined): string {
  const said = attemptsMade(attempts);
  return said === undefined ? text : text.replace(/^HTTP \d{3}(?=: |$)/, (status) => `${status}, ${said}`);
}

/** An API error's text with the attempts withAttemptsMade said taken out again: `HTTP 500, after 5 attempts: <body>` is `HTTP 500: <body>`. */
export function withoutAttemptsMade(text: string): string {
  return text.replace(/^(HTTP \d{3}), after \d+ attempts(?=: |$)/, "$1");
}
