// A fetch-compatible face of the egress path, for the MCP SDK's client
// transport talking to remote MCP servers. Same host checks, credential
// scoping, User-Agent and retry rules; an event stream is passed on as it
// arrives, scrubbed and under the byte cap, and without the deadline only
// when it is the server's own stream (a GET), not the answer to a request.
import { Readable } from "node:stream";
import { runAttempt } from "./attempt.js";
import { assertNoCredentialWithAnyHost, retryContext } from "./egress.js";
import { endAtDeadline, guardEventStream } from "./event-stream.js";
import { openFollowingRedirects } from "./follow-redirects.js";
import { discardBody, errorBodyText, readCapped } from "./read-body.js";
import { type Answer, withRetries } from "./retry-loop.js";
import { traced } from "./traced.js";
import type { CredentialRef, EgressPolicy, EgressRequest } from "./types.js";

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** How many attempts each answer egressFetch gave took; a Response has no field of its own for it. */
const attemptsOfAnswer = new WeakMap<Response, number>();

/**
 * How many attempts egressFetch made before `response` (1 when it was sent
 * once); undefined for a Response it did not make. The SDK turns an error
 * answer into an error of its own without the count, so the MCP tool reads
 * it here to say the retries were made (src/attempts.ts).
 */
export function attemptsOf(response: Response): number | undefined {
  return attemptsOfAnswer.get(response);
}

/**
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(tool.url), {
 *   fetch: egressFetch(policy, credential, "mcp tool issues"),
 * });
 */
export function egressFetch(policy: EgressPolicy, credential?: CredentialRef, operation?: string, retrySafe?: boolean): FetchLike {
  return async function egressFetchCall(input, init) {
    const request = { ...(await toEgressRequest(input, init, credential, operation)), ...(retrySafe ? { retrySafe } : {}) };
    assertNoCredentialWithAnyHost(request);
    const { answer, attempts } = await traced(request, policy, (watched, span) => {
      const ctx = retryContext(request, watched);
      return withRetries(ctx, (timeoutMs) =>
        runAttempt(timeoutMs, init?.signal, async (signal, keepDeadline): Promise<Answer & { body: Uint8Array | Readable; url: URL }> => {
          const opened = await openFollowingRedirects(request, policy, ctx.source, signal, span);
          if (isEventStream(opened.headers)) {
            // The caller's signal still ends the stream. The answer to a POST
            // (a tools/call, say) keeps the attempt's deadline over its body;
            // the server's own stream (a GET) may stay open as long as the run.
            const body = guardEventStream(opened.body, opened.headers["content-length"], opened.scrub, policy.maxBytes, request.operation);
            if (request.method !== "GET") endAtDeadline(body, keepDeadline(), request.operation, timeoutMs);
            return { ...opened, body, release: () => (discardBody(body), "") };
          }
          const body = opened.scrub.bytes(await readCapped(opened.body, opened.headers["content-length"], policy.maxBytes, request.operation));
          return { ...opened, body, release: () => errorBodyText(body) };
        }),
      );
    });
    const body = NULL_BODY.has(answer.status) ? null : answer.body instanceof Readable ? (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>) : answer.body;
    if (body === null && answer.body instanceof Readable) discardBody(answer.body);
    const response = new Response(body, { status: answer.status, headers: answer.headers });
    Object.defineProperty(response, "url", { value: answer.url.href });
    attemptsOfAnswer.set(response, attempts);
    return response;
  };
}

function isEventStream(headers: Record<string, string>): boolean {
  return (headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === "text/event-stream";
}

async function toEgressRequest(input: string | URL | Request, init: RequestInit | undefined, credential: CredentialRef | undefined, operation: string | undefined): Promise<EgressRequest> {
  const base = input instanceof Request ? input : undefined;
  const url = base ? base.url : input.toString();
  const method = (init?.method ?? base?.method ?? "GET").toUpperCase();
  const headers: Record<string, string> = {};
  new Headers(init?.headers ?? base?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const body = init?.body !== undefined ? toBody(init.body) : base && method !== "GET" && method !== "HEAD" ? new Uint8Array(await base.arrayBuffer()) : undefined;
  return { operation: operation ?? `${method} ${new URL(url).host}`, method, url, headers, ...(body !== undefined ? { body } : {}), ...(credential ? { credential } : {}) };
}

/** The body kinds an MCP client and oauth4webapi send (a token request is URLSearchParams); streams and multipart forms are refused. */
function toBody(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("egressFetch sends string or byte bodies only");
}
