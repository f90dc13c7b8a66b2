// The command line: parse options, then serve (stdio or HTTP), list the
// catalog, verify ledgers, or run offline cases. Returns the exit code.
import { chainedLedgers, DEFAULT_CHECKPOINT_EVERY, type ChainSigning } from "./ledger/chain.js";
import { randomUUID } from "node:crypto";
import { StepgateError } from "./errors.js";
import { RunRegistry } from "./engine/registry.js";
import type { RunContext } from "./engine/context.js";
import { fileSinks, stderrSinks } from "./ledger/sinks.js";
import { KeptLedgers } from "./ledger/kept.js";
import type { LoadedStepfile } from "./loader/load.js";
import { createServerFactory } from "./mcp/server.js";
import { serveStdio } from "./stdio.js";
import { startHttpServer } from "./http/server.js";
import { ServedStepfiles } from "./mcp/served.js";
import { watchStepfiles } from "./cli/watch.js";
import { runAuth } from "./cli/auth.js";
import { catalogEntries, loadArgument } from "./cli/catalog.js";
import { warningLines } from "./cli/load-warnings.js";
import { HELP } from "./cli/help.js";
import { parseOptions, UsageError, type Options } from "./cli/options.js";
import { packageVersion } from "./cli/package-root.js";
import { openToolbox } from "./tools/toolbox.js";
import { testMode } from "./cli/test-mode.js";
import { caseRecorder } from "./offline/index.js";
import { userAgent } from "./egress/index.js";
import { openGrants } from "./cli/grants.js";

export async function main(argv: string[]): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`stepgate: ${error.message} (see stepgate --help)\n`);
      return 2;
    }
    throw error;
  }
  switch (options.mode) {
    case "help":
      process.stdout.write(HELP);
      return 0;
    case "version":
      process.stdout.write(`stepgate ${packageVersion()}\n`);
      return 0;
    case "verify":
      return (await import("./cli/verify.js")).verifyMode(options, out, err);
    case "keygen":
      return (await import("./cli/keygen.js")).keygen(options.positionals[0]!, (line) => out(`${line}\n`), err);
    case "show":
      return (await import("./cli/show.js")).showMode(options, out, err, process.stdout.isTTY === true && !process.env.NO_COLOR);
    case "list": {
      const { listCatalog } = await import("./cli/list.js");
      return listCatalog(options.positionals, (text) => void process.stdout.write(text), (line) => void process.stderr.write(`${line}\n`));
    }
    case "test":
      return testMode(options);
    case "auth":
      return runAuth(options, {
        env: process.env,
        version: packageVersion(),
        out: (line) => void process.stdout.write(`${line}\n`),
        err: (line) => void process.stderr.write(`${line}\n`),
      });
    case "serve":
      return serve(options);
  }
}

const out = (text: string) => void process.stdout.write(text);
const err = (line: string) => void process.stderr.write(`${line}\n`);

async function serve(options: Options): Promise<number> {
  const signing = await ledgerSigning(options);
  if (typeof signing === "number") return signing;
  // In stdio mode without --ledger-dir, standard error carries only ledger JSON lines: no warnings there.
  const loaded = await loadAll(options.positionals, options.ledgerDir !== undefined || options.http !== undefined);
  if (!loaded) return 1;
  const stepfiles = new ServedStepfiles(loaded.map((l, i) => ({ source: options.positionals[i]!, loaded: l })));
  const stopWatching = options.watch ? watchStepfiles(options.positionals, stepfiles, (line) => void process.stderr.write(`${line}\n`)) : () => undefined;
  const grants = openGrants(options.tokenStore, (line) => void process.stderr.write(`${line}\n`));
  if (!grants) {
    stopWatching();
    return 1;
  }
  const kept = new KeptLedgers();
  const ledgers = chainedLedgers(kept.tee(options.ledgerDir ? fileSinks(options.ledgerDir) : stderrSinks()), undefined, signing);
  const ctx: RunContext = {
    limits: { callsPerStep: options.limits.callsPerStep, toolResultChars: options.limits.toolResultChars },
    ledger: ledgers,
    newRunId: () => randomUUID(),
    openToolbox: (stepfile, ledger, checkInputs) => openToolbox(stepfile, ledger, checkInputs, { limits: options.limits, contact: options.contact, env: process.env, version: packageVersion(), grants }),
    ...(options.recordCases ? { observe: caseRecorder(options.recordCases, (message) => void process.stderr.write(`stepgate: ${message}\n`)) } : {}),
  };
  const registry = new RunRegistry(ctx, options.limits.runIdleMs);
  const factory = createServerFactory({
    stepfiles,
    registry,
    version: packageVersion(),
    approvalTimeoutMs: options.limits.runIdleMs,
    ledgers: kept,
    // publicUrl is deliberately left unset: only tests replace the public-https check.
    authoring: {
      catalog: catalogEntries,
      grants: { credentials: options.draftCredentials, settings: options.draftSettings, hosts: options.draftHosts },
      env: process.env,
      requests: { userAgent: userAgent(packageVersion(), options.contact), timeoutMs: options.limits.requestTimeoutMs, maxBytes: options.limits.responseBytes },
      caseLimits: options.limits,
    },
  });
  if (options.http !== undefined) {
    const log = (line: string) => void process.stderr.write(`stepgate: ${line}\n`);
    const server = await startHttpServer({ port: options.http, factory, idleMs: options.limits.runIdleMs, log });
    await waitForSignal();
    stopWatching();
    await server.close();
    ledgers.checkpointOpen();
    await registry.closeAll();
    return 0;
  }
  const { closed } = await serveStdio(factory);
  await closed;
  stopWatching();
  ledgers.checkpointOpen();
  await registry.closeAll();
  return 0;
}

/** Load every stepfile argument, reporting every failure; undefined when any failed. */
async function loadAll(args: string[], printWarnings = true): Promise<LoadedStepfile[] | undefined> {
  const results = await Promise.allSettled(args.map((arg) => loadArgument(arg)));
  let ok = true;
  const loaded: LoadedStepfile[] = [];
  const seen = new Map<string, string>();
  for (const [i, result] of results.entries()) {
    if (result.status === "rejected") {
      ok = false;
      const error = result.reason as Error;
      const name = error instanceof StepgateError ? `${error.name}: ` : "stepgate: ";
      process.stderr.write(`${name}${error.message}\n`);
      continue;
    }
    const other = seen.get(result.value.doc.id);
    if (other !== undefined) {
      ok = false;
      process.stderr.write(`StepfileInvalid: ${args[i]} and ${other} both have id ${result.value.doc.id}; each served stepfile needs its own id\n`);
      continue;
    }
    seen.set(result.value.doc.id, args[i]!);
    if (printWarnings) for (const line of warningLines(result.value.warnings, args[i]!)) process.stderr.write(`${line}\n`);
    loaded.push(result.value);
  }
  return ok ? loaded : undefined;
}

/** The signing key (--signing-key, else STEPGATE_SIGNING_KEY), read before serving; an exit code when it cannot be used. */
async function ledgerSigning(options: Options): Promise<ChainSigning | undefined | number> {
  const path = options.signingKey ?? (process.env.STEPGATE_SIGNING_KEY || undefined);
  if (path === undefined) {
    if (options.checkpointEvery === undefined) return undefined;
    err("stepgate: --checkpoint-every needs a signing key (--signing-key or STEPGATE_SIGNING_KEY) (see stepgate --help)");
    return 2;
  }
  const { KeyFileError, loadSigner } = await import("./ledger/signing.js");
  try {
    return { signer: loadSigner(path), checkpointEvery: options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY };
  } catch (error) {
    if (!(error instanceof KeyFileError)) throw error;
    err(`stepgate: signing key ${error.message}`);
    return 1;
  }
}

/** HTTP mode runs until the operator stops it. */
function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}
