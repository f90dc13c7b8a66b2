// Preflight, in the seed's order, and the run's tools: OpenAPI operations,
// remote MCP tools and verifiers, every request through src/egress. The
// engine sees only the Toolbox interface.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { errorDetail, givenText } from "../jsonschema/error-detail.js";
import { CredentialUnavailable, InvalidGrant, PreflightFailed, StepgateError } from "../errors.js";
import { compile, type Compiled } from "../expr/index.js";
import { sha256 } from "../format/identity.js";
import { exposedName, type CredentialDef, type ToolDef } from "../format/types.js";
import { hostOf } from "../format/urls.js";
import type { LedgerWriter } from "../engine/records.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { CallOutcome, OperationView, RetryNotice, Toolbox, VerifierVerdict } from "../engine/toolbox.js";
import { credentialVariable, userAgent, type AddressGuard, type CredentialRef, type CredentialSource, type EgressPolicy, type EgressTrace } from "../egress/index.js";
import { oauthCredentials, usesRefreshForm, type OAuthGrants } from "../oauth/grants.js";
import { checkTokenEndpoint } from "../oauth/preflight.js";
import { missingCredentialHint } from "../oauth/variables.js";
import type { Limits } from "../limits.js";
import { fillSettings, readSettings } from "./settings.js";
import { openOpenApiTool } from "./openapi-tool.js";
import { loadOperations, type OpenApiToolSpec } from "./openapi/index.js";
import { callVerifier } from "./verifier.js";
import type { RunEvents } from "../engine/events.js";

export interface ToolboxOptions {
  limits: Limits;
  contact?: string | undefined;
  env: Record<string, string | undefined>;
  version: string;
  /** The process's refresh-token grants, shared by every run it starts. */
  grants: OAuthGrants;
  /** Resolved-address checks with the operator's --allow-private-host names; egress's default otherwise. */
  addresses?: AddressGuard;
  /** Watches every request the run's tools send (src/telemetry, when it is on). */
  trace?: EgressTrace;
}

/** One exposed operation, whatever kind of tool serves it. */
export interface Operation {
  view: OperationView;
  /** What arguments are checked against when it differs from `view.inputSchema` (OpenAPI one-value parameters). */
  argumentSchema?: Record<string, unknown>;
  tool: string;
  /** Where its requests go and with which credential, for the record of a call that got no answer. */
  host: string;
  credential: string | null;
  validate: ValidateFunction;
  select?: Compiled;
  call(args: Record<string, unknown>, policy: EgressPolicy): Promise<CallOutcome>;
}

/** Remote tools publish their own schemas and keep their own patterns (format section 6). */
export const remoteSchemas = new Ajv({ strict: false, allErrors: true, validateFormats: false });

/** An operation's argument problems, as the client (or a mechanical step's error) reads them; empty when fine. */
export function argumentProblems(validate: ValidateFunction, args: unknown): string[] {
  if (validate(args)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath === "" ? "arguments" : `arguments${e.instancePath.replaceAll("/", ".")}`} ${argumentMessage(e, args)}`);
}

/** What was wrong, what was given and what the schema allows (the enum's values, the type, the bound), and the argument nobody declared. */
function argumentMessage(e: ErrorObject, args: unknown): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === "additionalProperties") return `must NOT have additional properties (${String(p.additionalProperty)} is not an argument of this operation)`;
  if (e.keyword === "const") return `must be ${JSON.stringify(p.allowedValue)}, the only value the operation allows${givenText(e, args)}`;
  return errorDetail(e, args);
}

/**
 * Builds, without any request, what opening a stepfile's inline OpenAPI
 * tools builds (the dereferenced document, each exposed operation and its
 * argument validator), so the code a run's preflight runs has run once before
 * a client's first call (src/cli/serve.ts preloads it after tools/list). The
 * results are dropped: every run still opens its own tools. A tool whose
 * document is fetched by url is left to its run, which fetches it.
 */
export async function warmInlineTools(stepfile: LoadedStepfile): Promise<void> {
  for (const def of Object.values(stepfile.doc.tools ?? {})) {
    if (!def.openapi || def.openapi.document === undefined) continue;
    const specs = await loadOperations(def.openapi as OpenApiToolSpec, (def.exposes ?? []).map(exposedName), () => Promise.reject(new Error("an inline document fetches nothing")));
    for (const op of specs.values()) remoteSchemas.compile(op.argumentSchema ?? op.inputSchema);
  }
}

/** `events` hears each tool opened (its document fetched or its MCP server reached) and each retry on the way. */
export async function openToolbox(stepfile: LoadedStepfile, ledger: LedgerWriter, checkInputs: () => void, options: ToolboxOptions, events?: RunEvents): Promise<Toolbox> {
  const doc = stepfile.doc;
  const settings = readSettings(doc.settings ?? {}, options.env);
  checkInputs();

  const credentials = new Map<string, CredentialDef>(Object.entries(doc.credentials ?? {}));
  const tokenUrls = new Map([...credentials].flatMap(([name, def]) => (def.kind === "oauth2" && def.token_url ? [[name, def.token_url] as const] : [])));

  const tools = Object.entries(doc.tools ?? {}).map(([id, def]) => [id, resolveUrls(def, settings)] as const);
  const allowedHosts = new Set(tools.map(([, def]) => hostOf(toolUrl(def))!).filter(Boolean));
  // Retries during preflight (document fetches, MCP connects) belong to no step.
  const onRetry = (notice: RetryNotice) => {
    ledger.append("retry", { step: null, operation: notice.operation, attempt: notice.attempt, status: notice.status, wait_ms: notice.waitMs });
    events?.({ kind: "retry", step: null, operation: notice.operation, attempt: notice.attempt, status: notice.status, waitMs: notice.waitMs });
  };
  const plainPolicy = (retry: (n: RetryNotice) => void): EgressPolicy => ({
    allowedHosts,
    userAgent: userAgent(options.version, options.contact),
    timeoutMs: options.limits.requestTimeoutMs,
    maxBytes: options.limits.responseBytes,
    env: options.env,
    onRetry: retry,
    ...(options.addresses ? { addresses: options.addresses } : {}),
    ...(options.trace ? { trace: options.trace } : {}),
  });

  // The seed: checked before any credential is read, so a server pointing
  // elsewhere never sees a token.
  // An oauth2 credential's tokens are for the (first) MCP server it is sent to: RFC 8707's resource.
  const resources = new Map<string, string>();
  for (const [id, def] of tools) {
    const tokenUrl = def.mcp && def.credential ? tokenUrls.get(def.credential) : undefined;
    if (tokenUrl === undefined) continue;
    options.grants.learn(tokenUrl, await checkTokenEndpoint(id, def.mcp!.url, def.credential!, tokenUrl, plainPolicy(onRetry)));
    if (!resources.has(def.credential!)) resources.set(def.credential!, def.mcp!.url);
  }

  const refreshable = (name: string) => usesRefreshForm(options.grants, name, tokenUrls, options.env);
  for (const name of credentials.keys()) {
    if (!options.env[credentialVariable(name)] && !refreshable(name)) {
      // An access token --auth kept in the token store (a server without refresh tokens) is used until it expires.
      const stored = options.grants.storedAccess(name, tokenUrls.get(name));
      if (stored && "token" in stored) continue;
      const reason = stored ? `the access token stepgate --auth kept in the token store for it expired at ${stored.expiredAt} and is not refreshed; run stepgate --auth again` : new CredentialUnavailable(name, missingCredentialHint(name, tokenUrls.has(name))).message;
      throw new PreflightFailed(`credential ${name}`, reason);
    }
  }
  const source = oauthCredentials({ grants: options.grants, tokenUrls, resources, env: options.env, policy: plainPolicy(onRetry) });
  const policy = (retry: (n: RetryNotice) => void): EgressPolicy => ({ ...plainPolicy(retry), credentials: source });
  const credentialRef = (name: string): CredentialRef => {
    const c = credentials.get(name)!;
    return { name, kind: c.kind, hosts: c.hosts.map((h) => fillSettings(h, settings).toLowerCase()), placement: c.kind === "basic" ? { in: "basic" } : { in: "bearer" } };
  };
  // Refreshed at start, so a revoked grant stops the run before step 1.
  for (const name of tokenUrls.keys()) {
    if (refreshable(name)) await refreshAtStart(source, credentialRef(name));
  }

  const operations = new Map<string, Operation>();
  const verifiers = new Map<string, { url: string; credential?: CredentialRef }>();
  const closers: Array<() => Promise<void>> = [];
  const opening = tools.filter(([, def]) => !def.verifier).length;
  try {
    for (const [id, def] of tools) {
      const credential = def.credential ? credentialRef(def.credential) : undefined;
      const exposes = def.exposes ?? [];
      if (def.verifier) {
        verifiers.set(id, { url: def.verifier.url, ...(credential ? { credential } : {}) });
        continue;
      }
      const opened = def.openapi
        ? await openOpenApiTool(id, def.openapi, exposes, credential, policy(onRetry))
        : // The MCP client (a second copy of the SDK's schemas) loads only for stepfiles with MCP tools.
          await (await import("./mcp-tool.js")).openMcpTool(id, def.mcp!.url, exposes, credential, policy(onRetry));
      closers.push(opened.close);
      events?.({ kind: "preflight", item: `tool ${id}`, n: closers.length, total: opening });
      for (const [name, op] of opened.operations) {
        const exposed = exposes.find((e) => exposedName(e) === name);
        const select = typeof exposed === "object" && exposed.select !== undefined ? compile(exposed.select) : undefined;
        operations.set(name, { ...op, validate: remoteSchemas.compile(op.argumentSchema ?? op.view.inputSchema), ...(select ? { select } : {}) });
      }
    }
  } catch (error) {
    await Promise.all(closers.map((close) => close().catch(() => undefined)));
    if (error instanceof PreflightFailed) throw error;
    throw error instanceof StepgateError ? error : new PreflightFailed("tools", (error as Error).message);
  }

  return {
    operation: (name) => operations.get(name)?.view,
    checkArguments(name, args) {
      const op = operations.get(name);
      if (!op) return [`${name} is not an operation of this stepfile`];
      return argumentProblems(op.validate, args);
    },
    target(name) {
      const op = operations.get(name);
      return op && { tool: op.tool, host: op.host, credential: op.credential };
    },
    async call(name, args, retry) {
      const op = operations.get(name)!;
      return op.call(args, policy(retry));
    },
    shown(name, outcome) {
      const op = operations.get(name);
      if (!op?.select || outcome.isError) return outcome.text;
      const value = op.select(outcome.result as never);
      return typeof value === "string" ? value : JSON.stringify(value ?? null);
    },
    async verify(tool, payload, retry): Promise<VerifierVerdict> {
      const verifier = verifiers.get(tool)!;
      return callVerifier(tool, verifier.url, payload, verifier.credential, policy(retry));
    },
    async close() {
      await Promise.all(closers.map((close) => close().catch(() => undefined)));
    },
  };

  function toolUrl(def: ToolDef): string {
    return def.openapi?.server ?? def.mcp?.url ?? def.verifier!.url;
  }
}

/** InvalidGrant stops the run as itself; any other failure of the first refresh is the credential's preflight item. */
async function refreshAtStart(source: CredentialSource, credential: CredentialRef): Promise<void> {
  try {
    await source.read(credential);
  } catch (error) {
    if (error instanceof InvalidGrant) throw error;
    throw new PreflightFailed(`credential ${credential.name}`, (error as Error).message);
  }
}

function resolveUrls(def: ToolDef, settings: ReadonlyMap<string, string>): ToolDef {
  if (def.openapi) {
    const url = def.openapi.url === undefined ? {} : { url: fillSettings(def.openapi.url, settings) };
    return { ...def, openapi: { ...def.openapi, server: fillSettings(def.openapi.server, settings), ...url } };
  }
  if (def.mcp) return { ...def, mcp: { url: fillSettings(def.mcp.url, settings) } };
  return { ...def, verifier: { url: fillSettings(def.verifier!.url, settings) } };
}

export function outcomeFacts(bytes: Uint8Array | string): { responseHash: string; responseLength: number } {
  const data = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  return { responseHash: sha256(data), responseLength: data.byteLength };
}
