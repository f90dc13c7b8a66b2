// An error result as evidence writes it: the text the client is shown,
// `HTTP <status>: <body>` (format, preamble), with `is_error: true` and no
// separate `status`; after retries the agent was shown
// `HTTP <status>, after N attempts: <body>` (src/attempts.ts), and
// a case written from that reads the same. Replay needs what a live run has instead: the status
// (which `accept` compares) and the body the API sent, JSON-parsed when it
// parses (which `responses.<call id>` and gates read).
import { withoutAttemptsMade } from "../attempts.js";
import { errorText } from "../tools/openapi/index.js";

const ERROR_TEXT = /^HTTP ([1-5]\d\d)(?:: ([\s\S]*))?$/;

export interface RecordedResult {
  result: unknown;
  status?: number;
}

/**
 * The status and body of a recorded OpenAPI error given in the text form;
 * undefined when the call is not in that form (a success, a recording that
 * carries `status`, or a result that is not such a text).
 *
 * @example
 * readErrorText({ result: 'HTTP 404: {"error":"gone"}', is_error: true }) // { status: 404, result: { error: "gone" } }
 */
export function readErrorText(call: { result: unknown; is_error?: boolean; status?: number }): Required<RecordedResult> | undefined {
  if (call.is_error !== true || call.status !== undefined || typeof call.result !== "string") return undefined;
  const m = ERROR_TEXT.exec(withoutAttemptsMade(call.result));
  if (!m) return undefined;
  const body = m[2] ?? "";
  return { status: Number(m[1]), result: parseBody(body) };
}

/** The body as a live run keeps it: parsed when it is JSON, else the text. */
function parseBody(body: string): unknown {
  if (body.trim() === "") return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** The text a client is shown for a recorded result, as a live call shows it. */
export function recordedText(result: unknown, isError: boolean, status: number | undefined): string {
  const shown = typeof result === "string" ? result : JSON.stringify(result ?? null);
  return isError && status !== undefined ? errorText(status, shown) : shown;
}
