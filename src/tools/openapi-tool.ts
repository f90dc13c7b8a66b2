// An OpenAPI tool: its document (inline, or fetched from its url and checked
// against its digest), one operation per exposed operationId, each call built
// from the arguments and sent through egress.
import { PreflightFailed, ToolCallFailed } from "../errors.js";
import type { Exposed } from "../format/types.js";
import { exposedName } from "../format/types.js";
import { attemptsMade } from "../attempts.js";
import { egress, type CredentialRef, type EgressPolicy } from "../egress/index.js";
import { buildRequest, loadOperations, parseResult, routeOf, type OpenApiToolSpec, type OperationSpec } from "./openapi/index.js";
import type { Operation } from "./toolbox.js";
import { outcomeFacts } from "./toolbox.js";

type OpenedTool = { operations: Map<string, Omit<Operation, "validate" | "select">>; close: () => Promise<void> };

export async function openOpenApiTool(
  tool: string,
  spec: OpenApiToolSpec | { server: string; document?: Record<string, unknown>; url?: string; sha256?: string },
  exposes: readonly Exposed[],
  credential: CredentialRef | undefined,
  policy: EgressPolicy,
): Promise<OpenedTool> {
  let specs: Map<string, OperationSpec>;
  try {
    specs = await loadOperations(spec as OpenApiToolSpec, exposes.map(exposedName), documentBytes(tool, policy));
  } catch (error) {
    throw new PreflightFailed(`tool ${tool}`, (error as Error).message);
  }
  const operations = new Map<string, Omit<Operation, "validate" | "select">>();
  for (const exposed of exposes) {
    const name = exposedName(exposed);
    const op = specs.get(name)!;
    const retrySafe = typeof exposed === "object" && exposed.effect === "read" ? true : undefined;
    const placed = credential && placeFor(credential, op);
    operations.set(name, {
      tool,
      host: new URL(spec.server).host,
      credential: placed?.name ?? null,
      view: { name, ...(op.description ? { description: op.description } : {}), inputSchema: op.inputSchema },
      argumentSchema: op.argumentSchema,
      async call(args, callPolicy) {
        const request = buildRequest(op, spec.server, args);
        const response = await egress(
          {
            operation: name,
            method: request.method,
            url: request.url,
            route: routeOf(op, spec.server),
            headers: request.headers,
            ...(request.body !== undefined ? { body: request.body } : {}),
            ...(placed ? { credential: placed } : {}),
            ...(retrySafe ? { retrySafe } : {}),
          },
          callPolicy,
        );
        const parsed = parseResult(response.status, response.headers["content-type"], response.body);
        return {
          result: parsed.result,
          // parseResult already starts an error's text with `HTTP <status>:`.
          text: parsed.text,
          isError: parsed.isError,
          tool,
          host: response.host,
          status: response.status,
          durationMs: response.durationMs,
          attempts: response.attempts,
          credential: placed?.name ?? null,
          ...outcomeFacts(response.body),
        };
      },
    });
  }
  return { operations, close: async () => undefined };
}

/** The credential as this operation's security scheme places it; basic always as HTTP Basic. */
function placeFor(credential: CredentialRef, op: OperationSpec): CredentialRef | undefined {
  if (op.security !== null && op.security.length === 0) return undefined;
  if (credential.kind === "basic") return { ...credential, placement: { in: "basic" } };
  if (credential.kind === "oauth2") return { ...credential, placement: { in: "bearer" } };
  const placement = op.security?.find((p) => p.in !== "basic") ?? { in: "bearer" as const };
  return { ...credential, placement };
}

/**
 * How a tool's document is fetched from its url: one of the seed's two
 * exceptions, the document's own url, never with a credential (the request names
 * none). The exception is that url's host only: a
 * redirect to another host is refused, so a public document URL (a draft's,
 * say) cannot lead Stepgate to a private address. Preflight and the checks
 * of a pinned document (src/tools/pinned-documents.ts) both fetch with it.
 */
export function documentBytes(tool: string, policy: EgressPolicy): (url: string) => Promise<Uint8Array> {
  return async (url) => {
    // Errors name the url, since the operation ("<tool> document") does not say where it was fetched from.
    const response = await egress({ operation: `${tool} document`, method: "GET", url }, { ...policy, allowedHosts: new Set([new URL(url).host]) }).catch((error: unknown) => {
      throw error instanceof ToolCallFailed ? new Error(`GET ${url}: ${error.what}`) : error;
    });
    const retried = attemptsMade(response.attempts);
    if (response.status >= 400) throw new Error(`GET ${url}: HTTP ${response.status}${retried ? ` ${retried}` : ""}`);
    return response.body;
  };
}
