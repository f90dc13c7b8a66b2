// `stepgate [--http <port>] <stepfile | catalog name>...`: load every
// stepfile, then serve them over stdio or HTTP until the client or the
// operator stops it. Loaded only in this mode (see src/cli.ts).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { StepgateError } from "../errors.js";
import { RunRegistry } from "../engine/registry.js";
import type { RunContext } from "../engine/context.js";
import { chainedLedgers, DEFAULT_CHECKPOINT_EVERY, type ChainSigning } from "../ledger/chain.js";
import { fileSinks, stderrSinks } from "../ledger/sinks.js";
import { KeptLedgers } from "../ledger/kept.js";
import { loadStepfileTextDeferred, readStepfileText, type DeferredLoad, type LoadCache, type LoadedStepfile } from "../loader/load.js";
import { ServedStepfiles } from "../mcp/served.js";
import { initializeResultJson, modernResultJson } from "../mcp/server-info.js";
import { toolsListResultJson } from "../mcp/tool-list.js";
import type { EarlyReader, Handover } from "../stdio/early.js";
import { caseRecorder } from "../offline/record-cases.js";
import { userAgent } from "../egress/user-agent.js";
import type { OAuthGrants } from "../oauth/grants.js";
import type { AddressGuard } from "../egress/address-guard.js";
import type { HttpToken } from "../http/token-file.js";
import { watchStepfiles } from "./watch.js";
import { allObservers } from "../engine/observer.js";
import { telemetryWanted } from "../telemetry/wanted.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import { mayBeArazzo } from "../arazzo/detect.js";
import { catalogEntries, catalogRoot, isStepfilePath, loadArgumentDeferred, UnknownCatalogName } from "./catalog.js";
import { builtCatalogIndexOnce, readIndexedFacts } from "./catalog-index.js";
import { openLoadCache } from "./load-cache.js";
import { warningLines } from "./load-warnings.js";
import type { Options } from "./options.js";
import { packageRoot, packageVersion } from "./package-root.js";

const err = (line: string) => void process.stderr.write(`${line}\n`);

/** `early`: the stdio early reader, started by main (src/cli.ts) before this module loaded; none over HTTP or with telemetry on. */
export async function run(options: Options, early: EarlyReader | undefined): Promise<number> {
  const wanted = telemetryWanted(process.env);
  // Where load warnings go to standard error (over stdio without --ledger-dir it carries only ledger lines).
  if (wanted && (options.ledgerDir !== undefined || options.http !== undefined)) for (const problem of wanted.problems) err(`stepgate: warning: ${problem}`);
  // OpenTelemetry loads only when the operator's environment asks for it.
  const telemetry = wanted && (await import("../telemetry/start.js")).startTelemetry({ wanted, version: packageVersion(), transport: options.http === undefined ? "pipe" : "tcp" });
  let sent = true;
  const code = await serve(options, early ? (stepfiles) => answerEarly(early, stepfiles) : undefined, telemetry || undefined).finally(async () => {
    if (telemetry) sent = await telemetry.shutdown();
  });
  early?.stop();
  // A collector that never answered leaves the exporter's request open (its own
  // timeout is 10 s): every ledger is closed by now, so the process ends
  // rather than wait for it, keeping the 5 s promise of docs/observability.md.
  // Unref'd: a process free to exit earlier does.
  if (!sent) setTimeout(() => process.exit(code), 100).unref();
  return code;
}

async function serve(options: Options, answerEarly: ((stepfiles: ServedStepfiles) => Promise<EarlyOutcome>) | undefined, telemetry: Telemetry | undefined): Promise<number> {
  const signing = await ledgerSigning(options);
  if (typeof signing === "number") return signing;
  // In stdio mode without --ledger-dir, standard error carries only ledger JSON lines, so load warnings
  // are not printed there (docs/how-it-works.md, StepfileInvalid's row): `stepgate --check`,
  // stepgate_validate and --test show them. Nor are they sent as MCP log messages: those are about
  // runs and served files (docs/how-it-works.md, "Progress and log messages"), and a client's agent
  // has no use for an author's warnings about a file it can only run.
  const cache = options.cache ? openLoadCache() : undefined;
  const all = await loadAll(options.positionals, options, cache);
  if (!all) return 1;
  // Warnings wait for the first answer (refusals did not): found and printed once the client has its tools/list, or a second after start.
  const printWarnings = options.ledgerDir !== undefined || options.http !== undefined;
  let warned: Promise<void> | undefined;
  const warnLater = () => (warned ??= all.warnings(printWarnings));
  setTimeout(() => void warnLater(), WARNINGS_AFTER_MS).unref();
  const stepfiles = new ServedStepfiles(all.served);
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const documents = { files: all.arazzo, load: (arg: string, text: string) => loadArazzoArgument(arg, text, options, cache, log) };
  const stopWatching = options.watch ? watchStepfiles(options.positionals, stepfiles, log, options.maxStepfileBytes, cache, documents) : () => undefined;
  // One set of OAuth grants for the process. With --token-store they open at
  // start (a store that cannot be used stops the server before any run);
  // otherwise with the first toolbox, so OAuth loads only when a run starts.
  let grants: OAuthGrants | undefined;
  if (options.tokenStore !== undefined) {
    grants = (await import("./grants.js")).openGrants(options.tokenStore, (line) => void process.stderr.write(`${line}\n`));
    if (!grants) {
      stopWatching();
      return 1;
    }
  }
  const answered = answerEarly?.(stepfiles);
  let addresses: AddressGuard | undefined;
  const kept = new KeptLedgers();
  const ledgers = chainedLedgers(kept.tee(options.ledgerDir ? fileSinks(options.ledgerDir, undefined, undefined, (line) => err(`stepgate: ${line}`)) : stderrSinks()), undefined, signing);
  const ctx: RunContext = {
    limits: { callsPerStep: options.limits.callsPerStep, toolResultChars: options.limits.toolResultChars },
    ledger: ledgers,
    newRunId: () => randomUUID(),
    // Tools (egress, undici, the MCP client, OpenAPI dereferencing, OAuth) load when the first run starts.
    openToolbox: async (stepfile, ledger, checkInputs, events) => {
      const [{ openToolbox }, { OAuthGrants }, { addressGuard }] = await loadTools();
      grants ??= new OAuthGrants();
      // One resolving dispatcher for the process, so connections are shared across runs.
      addresses ??= addressGuard({ allowPrivateHosts: options.allowPrivateHosts });
      return openToolbox(stepfile, ledger, checkInputs, { limits: options.limits, contact: options.contact, env: process.env, version: packageVersion(), grants, addresses, ...(telemetry ? { trace: telemetry.egress } : {}) }, events);
    },
    ...observing([options.recordCases ? caseRecorder(options.recordCases, (message) => void process.stderr.write(`stepgate: ${message}\n`)) : undefined, telemetry?.observe]),
  };
  const registry = new RunRegistry(ctx, options.limits.runIdleMs, { maxRuns: options.maxRuns, maxRunsPerSession: options.maxRunsPerSession });
  // What the first tools/call needs, loaded once the client has its tools/list answer and is choosing a call.
  let preloading = false;
  const preload = () => {
    if (preloading) return;
    preloading = true;
    // After the answer is written: setImmediate runs once the current I/O (the write) is done.
    setImmediate(() => void warnLater().then(() => preloadFirstCall(stepfiles)));
  };
  // The MCP SDK loads here, after a stdio client's first answers are written.
  const handover = await answered;
  const { createServerFactory } = await import("../mcp/server.js");
  const factory = createServerFactory({
    stepfiles,
    registry,
    version: packageVersion(),
    approvalTimeoutMs: options.limits.runIdleMs,
    ledgers: kept,
    onToolsListed: preload,
    ...(telemetry ? { watch: telemetry.operations } : {}),
    // publicUrl is deliberately left unset: only tests replace the public-https check.
    authoring: {
      catalog: catalogEntries,
      knownExample: async (entry) => {
        const facts = await readIndexedFacts(builtCatalogIndexOnce(), catalogRoot(), entry);
        return facts && { title: facts.title ?? facts.description ?? "", needs: facts.environment, approval: facts.words.includes("approve") };
      },
      grants: { credentials: options.draftCredentials, settings: options.draftSettings, hosts: options.draftHosts },
      schemaUrl: pathToFileURL(join(packageRoot(), "schema", "stepfile.schema.json")).href,
      env: process.env,
      requests: { userAgent: userAgent(packageVersion(), options.contact), timeoutMs: options.limits.requestTimeoutMs, maxBytes: options.limits.responseBytes },
      caseLimits: options.limits,
    },
  });
  if (options.http !== undefined) {
    const log = (line: string) => void process.stderr.write(`stepgate: ${line}\n`);
    const token = await httpTokenFor(options);
    if (token === null) {
      stopWatching();
      return 1;
    }
    const [{ startHttpServer, ListenError }, { HttpTokenFileError }] = await Promise.all([import("../http/server.js"), import("../http/token-file.js")]);
    // Heard from before the listening line: a SIGTERM sent as soon as it is read must still close every run (not kill the process).
    const stopped = waitForSignal();
    let server: Awaited<ReturnType<typeof startHttpServer>>;
    try {
      server = await startHttpServer({
        port: options.http,
        factory,
        idleMs: options.limits.runIdleMs,
        runlessIdleMs: options.sessionIdleMs,
        log,
        maxSessions: options.maxSessions,
        ...(token ? { token: token.token } : {}),
        // Who may use this server, said once before the listening line; the token itself is never printed.
        // A new token's file is written only now that the port is bound.
        bound() {
          if (!token) log("any local process can use this server; to require a bearer token, start it with --http-token-file new:<file>");
          else if (token.write) {
            token.write();
            log(`wrote a new bearer token to ${token.path} (readable only by you); every request must carry Authorization: Bearer <that token>`);
          } else log(`every request must carry Authorization: Bearer <the token in ${token.path}>`);
        },
      });
    } catch (error) {
      if (!(error instanceof ListenError || error instanceof HttpTokenFileError)) throw error;
      stopWatching();
      err(`stepgate: ${error instanceof HttpTokenFileError ? "--http-token-file " : ""}${error.message}`);
      return 1;
    }
    await stopped;
    await warnLater();
    stopWatching();
    await server.close();
    ledgers.checkpointOpen();
    await registry.closeAll();
    return 0;
  }
  const { serveStdio } = await import("../stdio/serve.js");
  const { closed } = serveStdio(factory, handover?.handover, {
    // A --watch reload between the early tools/list answer and this server: tell the client as the server would have.
    initialized(server) {
      if (handover?.listedVersion !== undefined && handover.listedVersion !== stepfiles.version) void server.sendToolListChanged().catch(() => undefined);
    },
  });
  // tools/list was answered early, before the SDK loaded: the client is reading it now.
  if (handover?.listedVersion !== undefined) preload();
  await closed;
  // A session that ended sooner still gets its warnings printed and its loads kept.
  await warnLater();
  stopWatching();
  ledgers.checkpointOpen();
  await registry.closeAll();
  return 0;
}

/** The modules opening a run's tools needs (egress, undici, the MCP client, OpenAPI, OAuth): imported when the first run starts, or ahead of it. */
function loadTools() {
  return Promise.all([import("../tools/toolbox.js"), import("../oauth/grants.js"), import("../egress/address-guard.js")]);
}

/**
 * Loads and builds ahead what a session's first tools/call would otherwise
 * wait for (170-260 ms on a quiet machine, issue 21): the tool modules, the
 * MCP SDK's wire schemas (built lazily on first use), the Ajv instance that
 * checks tool arguments (its meta-schema is compiled on its first schema) and
 * each served stepfile's inputs schema.
 * Each step yields to the event loop, so a request that arrives meanwhile
 * waits for one module at most. A failure here is left for the call itself
 * to meet and report.
 */
async function preloadFirstCall(stepfiles: ServedStepfiles): Promise<void> {
  try {
    const [{ remoteSchemas, warmInlineTools }] = await loadTools();
    if (stepfiles.list().some((s) => Object.values(s.doc.tools ?? {}).some((tool) => tool.mcp !== undefined))) await import("../tools/mcp-tool.js");
    await new Promise((resolve) => setImmediate(resolve));
    (await import("@modelcontextprotocol/server")).preloadSchemas();
    await new Promise((resolve) => setImmediate(resolve));
    remoteSchemas.compile({ type: "object" });
    // A run's inputs are checked first; a plain schema compiles on its first use (src/jsonschema/author-schemas.ts).
    for (const stepfile of stepfiles.list()) {
      await new Promise((resolve) => setImmediate(resolve));
      stepfile.compiled.inputs(undefined);
    }
    // Then what preflight builds from inline OpenAPI documents (dereferencing, operations, argument validators), once each.
    for (const stepfile of stepfiles.list()) {
      await new Promise((resolve) => setImmediate(resolve));
      await warmInlineTools(stepfile);
    }
  } catch {
    // The first call loads the same modules and reports what fails.
  }
}

/** RunContext.observe for every watcher given (--record-cases, telemetry); none when there is none. */
function observing(watchers: ReadonlyArray<RunContext["observe"]>): Pick<RunContext, "observe"> {
  const all = watchers.filter((w) => w !== undefined);
  if (all.length === 0) return {};
  return { observe: (run) => allObservers(all.map((w) => w(run))) };
}

interface EarlyOutcome {
  handover: Handover;
  /** The catalog version of the tools/list answered early, if one was. */
  listedVersion?: number;
}

async function answerEarly(early: EarlyReader, stepfiles: ServedStepfiles): Promise<EarlyOutcome> {
  let listedVersion: number | undefined;
  const handover = await early.answer({
    initializeResult: (protocolVersion) => initializeResultJson(protocolVersion, packageVersion()),
    toolsListResult: () => {
      listedVersion = stepfiles.version;
      return toolsListResultJson(stepfiles);
    },
    modernToolsListResult: () => {
      listedVersion = stepfiles.version;
      return modernResultJson(toolsListResultJson(stepfiles), packageVersion());
    },
  });
  return listedVersion === undefined ? { handover } : { handover, listedVersion };
}

/** When the warnings of served stepfiles are found if no tools/list came first. */
const WARNINGS_AFTER_MS = 1000;

/** A served stepfile: the argument (or `<arg>#<workflowId>` for an Arazzo workflow) and its load, warnings still to find. */
interface ServedLoad {
  source: string;
  load: DeferredLoad;
}

/**
 * Load every stepfile argument, reporting every failure; undefined when any
 * failed. Their warnings are found later (`warnings`, which prints them when
 * asked to): the rules pass was a tenth of a first launch's loading (issue
 * 27), and a client waiting for tools/list needs only to know each file loads.
 * An Arazzo document (docs/arazzo.md) is served as the stepfiles its
 * workflows convert to, each under `<arg>#<workflowId>`.
 */
async function loadAll(
  args: string[],
  options: Options,
  cache: LoadCache | undefined,
): Promise<{ served: { source: string; loaded: LoadedStepfile }[]; arazzo: Map<string, string[]>; warnings: (print: boolean) => Promise<void> } | undefined> {
  /** Each Arazzo argument, with the local files it read beside it (--watch watches them too). */
  const arazzo = new Map<string, string[]>();
  const loadOne = async (arg: string): Promise<ServedLoad[]> => {
    if (!isStepfilePath(arg)) return [{ source: arg, load: await loadArgumentDeferred(arg, options.maxStepfileBytes, cache) }];
    // A path is read once: the same text is looked at for an Arazzo document and loaded.
    const text = await readStepfileText(arg, arg, options.maxStepfileBytes);
    if (!(mayBeArazzo(text) && (await import("../arazzo/served-document.js")).isArazzoDocument(text, arg))) return [{ source: arg, load: loadStepfileTextDeferred(text, arg, cache) }];
    const document = await loadArazzoArgument(arg, text, options, cache, err);
    arazzo.set(arg, document.files);
    // A converted workflow is loaded in full (its warnings found with it), so finishing gives them back, after the document's own findings about it.
    return document.workflows.map(({ source, loaded, notes }) => ({ source, load: { loaded, finish: () => [...notes, ...loaded.warnings] } }));
  };
  const results = await Promise.allSettled(args.map(loadOne));
  let ok = true;
  const served: { source: string; loaded: LoadedStepfile }[] = [];
  const deferred: ServedLoad[] = [];
  const seen = new Map<string, string>();
  let unexpected: unknown;
  for (const result of results) {
    if (result.status === "rejected") {
      ok = false;
      const error = result.reason as Error;
      // What a stepfile argument can be refused for is typed; anything else is a defect of Stepgate
      // (or a damaged install), reported after the refusals as an internal error: exit 70 (bin/stepgate.js).
      if (!(error instanceof StepgateError || error instanceof UnknownCatalogName)) {
        unexpected ??= error;
        continue;
      }
      const name = error instanceof StepgateError ? `${error.name}: ` : "stepgate: ";
      process.stderr.write(`${name}${error.message}\n`);
      continue;
    }
    for (const entry of result.value) {
      const stepfile = entry.load.loaded;
      const other = seen.get(stepfile.doc.id);
      if (other !== undefined) {
        ok = false;
        process.stderr.write(`StepfileInvalid: ${entry.source} and ${other} both have id ${stepfile.doc.id}; each served stepfile needs its own id\n`);
        continue;
      }
      seen.set(stepfile.doc.id, entry.source);
      deferred.push(entry);
      served.push({ source: entry.source, loaded: stepfile });
    }
  }
  if (unexpected !== undefined) throw unexpected;
  const warnings = async (print: boolean) => {
    for (const { source, load } of deferred) {
      // One file at a time, so a request that arrives meanwhile waits for one file's rules at most.
      await new Promise((resolve) => setImmediate(resolve));
      const found = load.finish();
      if (print) for (const line of warningLines(found, source)) process.stderr.write(`${line}\n`);
    }
  };
  return ok ? { served, arazzo, warnings } : undefined;
}

/** An Arazzo document's workflows, converted; its remote sources fetched as stepgate_inspect_api fetches; refusals told to `warn`. */
async function loadArazzoArgument(arg: string, text: string, options: Options, cache: LoadCache | undefined, warn: (line: string) => void) {
  const { loadArazzoDocument } = await import("../arazzo/served-document.js");
  const { remoteSourceFetcher } = await import("../arazzo/fetch-source.js");
  const fetchRemote = remoteSourceFetcher({ userAgent: userAgent(packageVersion(), options.contact), timeoutMs: options.limits.requestTimeoutMs, maxBytes: options.limits.responseBytes, allowPrivateHosts: options.allowPrivateHosts });
  return loadArazzoDocument(arg, arg, text, { localCopies: options.arazzo.sources, servers: options.arazzo.servers, fetchRemote }, warn, cache);
}

/** The signing key (--signing-key, else STEPGATE_SIGNING_KEY), read before serving; an exit code when it cannot be used. */
async function ledgerSigning(options: Options): Promise<ChainSigning | undefined | number> {
  const path = options.signingKey ?? (process.env.STEPGATE_SIGNING_KEY || undefined);
  if (path === undefined) {
    if (options.checkpointEvery === undefined) return undefined;
    err("stepgate: --checkpoint-every needs a signing key (--signing-key or STEPGATE_SIGNING_KEY) (see stepgate --help)");
    return 2;
  }
  const { KeyFileError, loadSigner } = await import("../ledger/signing.js");
  try {
    return { signer: loadSigner(path), checkpointEvery: options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY };
  } catch (error) {
    if (!(error instanceof KeyFileError)) throw error;
    err(`stepgate: signing key ${error.message}`);
    return 1;
  }
}

/** The bearer token of HTTP mode (--http-token-file, else STEPGATE_HTTP_TOKEN_FILE); undefined without one, null when it cannot be used (reported). */
async function httpTokenFor(options: Options): Promise<HttpToken | undefined | null> {
  const spec = options.httpTokenFile ?? (process.env.STEPGATE_HTTP_TOKEN_FILE || undefined);
  if (spec === undefined) return undefined;
  const { httpToken, HttpTokenFileError } = await import("../http/token-file.js");
  try {
    return httpToken(spec);
  } catch (error) {
    if (!(error instanceof HttpTokenFileError)) throw error;
    err(`stepgate: --http-token-file ${error.message}`);
    return null;
  }
}

/** HTTP mode runs until the operator stops it. */
function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}
