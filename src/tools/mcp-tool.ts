// A remote MCP tool over Streamable HTTP, with the SDK's client: every byte
// goes through egress (egressFetch), the bearer credential only to its hosts.
// Preflight connects, checks the exposed tools exist and their pinned
// schemas match (RFC 8785 of the listed input schema).
import { Client, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { attemptsMade } from "../attempts.js";
import { InvalidGrant, PreflightFailed, StepgateError, ToolCallFailed } from "../errors.js";
import { hashJson } from "../format/identity.js";
import { exposedName, type Exposed } from "../format/types.js";
import { attemptsOf, egressFetch, type CredentialRef, type EgressPolicy, type FetchLike } from "../egress/index.js";
import { listAllTools, type ListedTool } from "./mcp-list-tools.js";
import type { Operation } from "./toolbox.js";
import { outcomeFacts } from "./toolbox.js";

export async function openMcpTool(
  tool: string,
  url: string,
  exposes: readonly Exposed[],
  credential: CredentialRef | undefined,
  policy: EgressPolicy,
): Promise<{ operations: Map<string, Omit<Operation, "validate" | "select">>; close: () => Promise<void> }> {
  const bearer = credential && { ...credential, placement: { in: "bearer" as const } };
  const client = new Client({ name: "stepgate", version: "1" });
  // The transport's fetch is fixed at connect, but a retry during a call
  // belongs to the step making it: each call points `retries` at its own
  // sink for its duration (a run makes one call at a time), and preflight's
  // sink takes retries outside calls.
  let retries = policy.onRetry;
  const fetchPolicy: EgressPolicy = { ...policy, onRetry: (record) => retries?.(record) };
  // egress judges a request safe to repeat after a 5xx or network error by
  // its method, and every MCP message is a POST. The seed makes an
  // operation's `effect: read` the exception, so a call of such an operation
  // raises `readCall` for its duration and its tools/call message goes out
  // retry-safe; initialize, tools/list and anything else sent meanwhile (a
  // cancellation, say) keep the POST rule.
  const plainFetch = egressFetch(fetchPolicy, bearer, tool);
  const readFetch = egressFetch(fetchPolicy, bearer, tool, true);
  let readCall = false;
  // A body's failure ends the call that was pending when its request went
  // out, never a later one: a stream left open after its answer may still
  // fail (its deadline, say) while the next call waits.
  // The attempts the pending call's tools/call took are kept beside it: an
  // error answer reaches the call only as the SDK's error, which has no count.
  let callAttempts: number | undefined;
  const fetch: FetchLike = async (input, init) => {
    const owner = pendingCall;
    const toolsCall = owner !== undefined && isToolsCall(init?.body);
    const response = await (readCall && toolsCall ? readFetch : plainFetch)(input, init);
    if (toolsCall) callAttempts = attemptsOf(response);
    return watchBody(response, (error) => failCall(owner, error));
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch });
  // An answer streamed as events can fail mid-stream (past --response-bytes,
  // say). The SDK's stream reader only reports that as a disconnect, as text,
  // and leaves the pending call to time out; so the body is watched here and
  // Stepgate's own error ends the pending call at once.
  let pendingCall: AbortController | undefined;
  function failCall(call: AbortController | undefined, error: unknown) {
    const own = stepgateErrorIn(error);
    if (own && call && !call.signal.aborted) call.abort(own);
  }
  let listed: ListedTool[];
  try {
    await client.connect(transport);
    listed = await listAllTools(client);
  } catch (error) {
    await client.close().catch(() => undefined);
    // A revoked grant is the seed's InvalidGrant wherever it is found, not a tool's fault.
    if (error instanceof InvalidGrant) throw error;
    throw new PreflightFailed(`tool ${tool}`, `could not list the tools of ${url}: ${(error as Error).message}`);
  }
  const operations = new Map<string, Omit<Operation, "validate" | "select">>();
  const host = new URL(url).host;
  for (const exposed of exposes) {
    const name = exposedName(exposed);
    const found = listed.find((t) => t.name === name);
    if (!found) {
      await client.close().catch(() => undefined);
      throw new PreflightFailed(`tool ${tool}`, `${url} lists no tool named ${name}`);
    }
    const pin = typeof exposed === "object" ? exposed.schema_sha256 : undefined;
    if (pin && hashJson(found.inputSchema) !== pin) {
      await client.close().catch(() => undefined);
      throw new PreflightFailed(`tool ${tool}`, `the input schema of ${name} changed: pinned ${pin}, listed ${hashJson(found.inputSchema)}`);
    }
    const effectRead = typeof exposed === "object" && exposed.effect === "read";
    operations.set(name, {
      tool,
      host,
      credential: bearer?.name ?? null,
      view: { name, ...(found.description ? { description: found.description } : {}), inputSchema: found.inputSchema },
      async call(args, callPolicy) {
        const started = performance.now();
        // Named after the operation, as an OpenAPI call's retries are.
        retries = (record) => callPolicy.onRetry?.({ ...record, operation: name });
        readCall = effectRead;
        const call = (pendingCall = new AbortController());
        callAttempts = undefined;
        let result: { content?: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };
        try {
          // With telemetry on, the trace goes on in params._meta too, as the MCP semantic conventions carry it.
          const meta = callPolicy.trace?.context();
          result = (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, { signal: call.signal })) as typeof result;
        } catch (error) {
          throw callFailure(name, call.signal.aborted ? call.signal.reason : error, callAttempts);
        } finally {
          retries = policy.onRetry;
          readCall = false;
          pendingCall = undefined;
        }
        const text = (result.content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
        return {
          result: result.structuredContent ?? parseJson(text),
          text,
          isError: result.isError === true,
          tool,
          host,
          status: null,
          durationMs: Math.round(performance.now() - started),
          credential: bearer?.name ?? null,
          ...outcomeFacts(JSON.stringify(result)),
        };
      },
    });
  }
  return { operations, close: () => client.close() };
}

/** Longest body (or message) a failed call's ToolCallFailed carries, as for a verifier's. */
const FAILURE_BODY_CHARS = 2000;

/**
 * What a tools/call that threw becomes. The SDK raises its own errors for a
 * failed POST or a broken transport, which the engine would take for a bug
 * and end the run with InternalError. Stepgate's own errors, thrown by egress
 * under the SDK (EgressDenied, ResponseTooLarge, InvalidGrant, ...), keep
 * their meaning and so still end the run; anything else is the seed's
 * ToolCallFailed, which the client gets as an error result; an HTTP error
 * answered after retries (an `effect: read` tool's) says how many attempts
 * were made, as an OpenAPI call's does: `HTTP 503, after 5 attempts: busy`.
 */
export function callFailure(operation: string, error: unknown, attempts?: number): StepgateError {
  const own = stepgateErrorIn(error);
  // Named after the operation the client called, as an OpenAPI call's failure is, not the tool egress sent it for.
  if (own instanceof ToolCallFailed) return new ToolCallFailed(operation, own.status, own.body, reasonOf(own));
  if (own) return own;
  if (SdkHttpError.isInstance(error)) {
    const body = typeof error.data.text === "string" && error.data.text !== "" ? error.data.text : error.message;
    return new ToolCallFailed(operation, error.status, body.slice(0, FAILURE_BODY_CHARS), attemptsMade(attempts));
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolCallFailed(operation, null, message.slice(0, FAILURE_BODY_CHARS), "no usable answer");
}

/** The StepgateError that is `error` or that it wraps through `cause`; the depth bound guards against a cycle. */
function stepgateErrorIn(error: unknown): StepgateError | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof StepgateError) return current;
    current = current.cause;
  }
  return undefined;
}

function reasonOf(failure: ToolCallFailed): string | undefined {
  const reason = failure.details.reason;
  return typeof reason === "string" ? reason : undefined;
}

/** Whether a request body is a JSON-RPC tools/call message, as the SDK sends it (a JSON string). */
function isToolsCall(body: RequestInit["body"]): boolean {
  if (typeof body !== "string") return false;
  try {
    return (JSON.parse(body) as { method?: unknown }).method === "tools/call";
  } catch {
    return false;
  }
}

/** The same response, whose body reports a read failure to `onError` before failing as before. */
function watchBody(response: Response, onError: (error: unknown) => void): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const watched = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(watched, "url", { value: response.url });
  return watched;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
