// The command line: parse options, then serve (stdio or HTTP), list the
// catalog, verify ledgers, or run offline cases. Returns the exit code.
import { chainedLedgers } from "./ledger/chain.js";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { StepgateError } from "./errors.js";
import { RunRegistry } from "./engine/registry.js";
import type { RunContext } from "./engine/context.js";
import { verifyLedger } from "./ledger/verify.js";
import { fileSinks, stderrSinks } from "./ledger/sinks.js";
import type { LoadedStepfile } from "./loader/load.js";
import { createServerFactory } from "./mcp/server.js";
import { serveStdio } from "./stdio.js";
import { startHttpServer } from "./http/server.js";
import { ServedStepfiles } from "./mcp/served.js";
import { watchStepfiles } from "./cli/watch.js";
import { runAuth } from "./cli/auth.js";
import { catalogEntries, loadArgument } from "./cli/catalog.js";
import { HELP } from "./cli/help.js";
import { parseOptions, UsageError, type Options } from "./cli/options.js";
import { packageVersion } from "./cli/package-root.js";
import { openToolbox } from "./tools/toolbox.js";
import { testMode } from "./cli/test-mode.js";
import { caseRecorder } from "./offline/index.js";
import { addressGuard, userAgent } from "./egress/index.js";
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
      return verify(options.positionals);
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

async function serve(options: Options): Promise<number> {
  const loaded = await loadAll(options.positionals, options.maxStepfileBytes);
  if (!loaded) return 1;
  const stepfiles = new ServedStepfiles(loaded.map((l, i) => ({ source: options.positionals[i]!, loaded: l })));
  const stopWatching = options.watch ? watchStepfiles(options.positionals, stepfiles, (line) => void process.stderr.write(`${line}\n`), options.maxStepfileBytes) : () => undefined;
  const grants = openGrants(options.tokenStore, (line) => void process.stderr.write(`${line}\n`));
  if (!grants) {
    stopWatching();
    return 1;
  }
  const addresses = addressGuard({ allowPrivateHosts: options.allowPrivateHosts });
  const ctx: RunContext = {
    limits: { callsPerStep: options.limits.callsPerStep, toolResultChars: options.limits.toolResultChars },
    ledger: chainedLedgers(options.ledgerDir ? fileSinks(options.ledgerDir) : stderrSinks()),
    newRunId: () => randomUUID(),
    openToolbox: (stepfile, ledger, checkInputs) => openToolbox(stepfile, ledger, checkInputs, { limits: options.limits, contact: options.contact, env: process.env, version: packageVersion(), grants, addresses }),
    ...(options.recordCases ? { observe: caseRecorder(options.recordCases, (message) => void process.stderr.write(`stepgate: ${message}\n`)) } : {}),
  };
  const registry = new RunRegistry(ctx, options.limits.runIdleMs);
  const factory = createServerFactory({
    stepfiles,
    registry,
    version: packageVersion(),
    approvalTimeoutMs: options.limits.runIdleMs,
    // publicUrl is deliberately left unset: only tests replace the public-https check.
    authoring: {
      catalog: catalogEntries,
      grants: { credentials: options.draftCredentials, settings: options.draftSettings },
      env: process.env,
      requests: { userAgent: userAgent(packageVersion(), options.contact), timeoutMs: options.limits.requestTimeoutMs, maxBytes: options.limits.responseBytes },
    },
  });
  if (options.http !== undefined) {
    const log = (line: string) => void process.stderr.write(`stepgate: ${line}\n`);
    const server = await startHttpServer({ port: options.http, factory, idleMs: options.limits.runIdleMs, log, maxSessions: options.maxSessions });
    await waitForSignal();
    stopWatching();
    await server.close();
    await registry.closeAll();
    return 0;
  }
  const { closed } = await serveStdio(factory);
  await closed;
  stopWatching();
  await registry.closeAll();
  return 0;
}

/** Load every stepfile argument, reporting every failure; undefined when any failed. */
async function loadAll(args: string[], maxBytes: number): Promise<LoadedStepfile[] | undefined> {
  const results = await Promise.allSettled(args.map((arg) => loadArgument(arg, maxBytes)));
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
    loaded.push(result.value);
  }
  return ok ? loaded : undefined;
}

async function verify(files: string[]): Promise<number> {
  let failed = false;
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      process.stdout.write(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})\n`);
      failed = true;
      continue;
    }
    const verdict = verifyLedger(text);
    if (verdict.ok) process.stdout.write(`${file}: ok, ${verdict.records} records\n`);
    else {
      failed = true;
      process.stdout.write(`${file}: seq ${verdict.seq ?? "?"} does not follow (line ${verdict.line}): ${verdict.reason}\n`);
    }
  }
  return failed ? 1 : 0;
}

/** HTTP mode runs until the operator stops it. */
function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}
