// How a failed call says it was sent more than once: "after N attempts",
// from the count egress gives the OpenAPI tool (CallOutcome.attempts). One
// wording for every place a person or an agent reads a failure: a
// mechanical step's ToolCallFailed (src/engine/mechanical.ts), the error
// result of an agent's stepgate_call (src/engine/run.ts), a pinned
// document's failed fetch (src/tools/openapi-tool.ts); and read back where
// an error text is replayed (src/offline/recorded-error.ts). A call sent
// once names no count. It sits at the top of the layers, beside errors.ts,
// so egress can say it too without importing the engine, which calls it.

/** `after N attempts` when the call was sent more than once; undefined otherwise, or when the tool does not count. */
export function attemptsMade(attempts: number | undefined): string | undefined {
  return attempts !== undefined && attempts > 1 ? `after ${attempts} attempts` : undefined;
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
