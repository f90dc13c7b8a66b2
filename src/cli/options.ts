// Command-line options: the seed's Limits table plus the modes of server.md.
// Every bad value is one line naming the option, and exit code 2.
import { isIP } from "node:net";
import { parseArgs } from "node:util";
import { DEFAULT_LIMITS, DEFAULT_MAX_RUNS, DEFAULT_MAX_RUNS_PER_SESSION, DEFAULT_MAX_SESSIONS, DEFAULT_MAX_STEPFILE_BYTES, DEFAULT_SESSION_IDLE_MS, type Limits } from "../limits.js";
import { normalDraftHost } from "../authoring/draft-hosts.js";

export { DEFAULT_LIMITS, type Limits };

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface Options {
  mode: "serve" | "list" | "test" | "check" | "verify" | "auth" | "keygen" | "show" | "help" | "version" | "from-arazzo";
  http?: number;
  limits: Limits;
  ledgerDir?: string;
  contact?: string;
  draftCredentials: Array<{ name: string; hosts: string[] }>;
  draftSettings: string[];
  /** DNS names allowed to resolve to private addresses (--allow-private-host). */
  allowPrivateHosts: string[];
  /** Largest stepfile or cases file read (--max-stepfile-bytes). */
  maxStepfileBytes: number;
  /** Most HTTP sessions open at once (--max-sessions). */
  maxSessions: number;
  /** Most open runs in the server (--max-runs), and in one session (--max-runs-per-session). */
  maxRuns: number;
  maxRunsPerSession: number;
  /** An HTTP session that never started a run is closed after this long idle (--session-idle-ms). */
  sessionIdleMs: number;
  /** The bearer token's file for --http, `new:<file>` to write one (--http-token-file). */
  httpTokenFile?: string;
  draftHosts: string[];
  recordCases?: string;
  watch: boolean;
  /** Whether stepfile loads use the load cache (src/cli/load-cache.ts); --no-cache turns it off. */
  cache: boolean;
  clientId?: string;
  /** With --auth --client-id: how that client sends its secret (--client-auth-method). */
  clientAuthMethod?: "client_secret_basic" | "client_secret_post";
  /** With --auth: the redirect URI's loopback port (--redirect-port); else any free port. */
  redirectPort?: number;
  /** With --auth: how long to wait for the browser's redirect (--auth-wait-ms); else AUTH_WAIT_MS. */
  authWaitMs?: number;
  tokenStore?: string;
  /** Ledger signing and reading (src/cli/keygen.ts, verify.ts, show.ts). */
  signingKey?: string;
  checkpointEvery?: number;
  key?: string;
  json: boolean;
  /** --check: a warning fails the check too. */
  strict: boolean;
  /** --check: how findings are written (--format; --json is --format json). */
  format: "text" | "json" | "sarif";
  /** --check: rule ids left out of this run (--ignore, repeatable). */
  ignore: string[];
  /** --check: fetch no pinned OpenAPI document (--offline). */
  offline: boolean;
  html?: string;
  /** --test --mutate: wrong and equivalent outputs played through the gates (src/offline/mutate). */
  mutate?: { perEntry?: number; minScore?: number; seed?: number };
  /** Arazzo documents (docs/arazzo.md): --from-arazzo's file, --workflow, --out; --source and --server also apply when serving or checking one. */
  arazzo: ArazzoOptions;
  positionals: string[];
}

export interface ArazzoOptions {
  file?: string;
  workflow?: string;
  out?: string;
  /** --source <name>=<file>: a local copy of a sourceDescription, inlined. */
  sources: Map<string, string>;
  /** --server <name>=<url>: the base URL a source's requests go to. */
  servers: Map<string, string>;
}


const IDENTIFIER = /^[a-z][a-z0-9-]*$/;
const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/;
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export function parseOptions(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        http: { type: "string" },
        list: { type: "boolean" },
        test: { type: "boolean" },
        check: { type: "boolean" },
        strict: { type: "boolean" },
        format: { type: "string" },
        ignore: { type: "string", multiple: true },
        offline: { type: "boolean" },
        verify: { type: "boolean" },
        auth: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
        "calls-per-step": { type: "string" },
        "tool-result-chars": { type: "string" },
        "run-idle-ms": { type: "string" },
        "request-timeout-ms": { type: "string" },
        "response-bytes": { type: "string" },
        "ledger-dir": { type: "string" },
        contact: { type: "string" },
        "draft-credential": { type: "string", multiple: true },
        "draft-setting": { type: "string", multiple: true },
        "allow-private-host": { type: "string", multiple: true },
        "max-stepfile-bytes": { type: "string" },
        "max-sessions": { type: "string" },
        "max-runs": { type: "string" },
        "max-runs-per-session": { type: "string" },
        "session-idle-ms": { type: "string" },
        "http-token-file": { type: "string" },
        "draft-host": { type: "string", multiple: true },
        "record-cases": { type: "string" },
        watch: { type: "boolean" },
        "no-cache": { type: "boolean" },
        "client-id": { type: "string" },
        "client-auth-method": { type: "string" },
        "redirect-port": { type: "string" },
        "auth-wait-ms": { type: "string" },
        "token-store": { type: "string" },
        keygen: { type: "boolean" },
        show: { type: "boolean" },
        "signing-key": { type: "string" },
        "checkpoint-every": { type: "string" },
        key: { type: "string" },
        json: { type: "boolean" },
        html: { type: "string" },
        mutate: { type: "boolean" },
        mutants: { type: "string" },
        "min-score": { type: "string" },
        seed: { type: "string" },
        "from-arazzo": { type: "string" },
        workflow: { type: "string" },
        out: { type: "string" },
        source: { type: "string", multiple: true },
        server: { type: "string", multiple: true },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]!.replace(/\. To specify.*$/, ""));
  }
  const v = parsed.values;
  const modes = (["list", "test", "check", "verify", "auth", "keygen", "show", "help", "version", "from-arazzo"] as const).filter((m) => v[m] !== undefined && v[m] !== false);
  if (modes.length > 1) throw new UsageError(`--${modes[0]} and --${modes[1]} cannot be combined`);
  const mode = modes[0] ?? "serve";

  const limits: Limits = {
    callsPerStep: integer("--calls-per-step", v["calls-per-step"], DEFAULT_LIMITS.callsPerStep, 1),
    toolResultChars: integer("--tool-result-chars", v["tool-result-chars"], DEFAULT_LIMITS.toolResultChars, 1),
    runIdleMs: integer("--run-idle-ms", v["run-idle-ms"], DEFAULT_LIMITS.runIdleMs, 1),
    requestTimeoutMs: integer("--request-timeout-ms", v["request-timeout-ms"], DEFAULT_LIMITS.requestTimeoutMs, 1),
    responseBytes: integer("--response-bytes", v["response-bytes"], DEFAULT_LIMITS.responseBytes, 1),
  };
  const options: Options = {
    mode,
    limits,
    draftCredentials: (v["draft-credential"] ?? []).map(draftCredential),
    draftSettings: (v["draft-setting"] ?? []).map((s) => {
      if (!IDENTIFIER.test(s)) throw new UsageError(`--draft-setting ${JSON.stringify(s)}: expected a setting name like jira-site`);
      return s;
    }),
    allowPrivateHosts: (v["allow-private-host"] ?? []).map(privateHost),
    maxStepfileBytes: integer("--max-stepfile-bytes", v["max-stepfile-bytes"], DEFAULT_MAX_STEPFILE_BYTES, 1),
    maxSessions: integer("--max-sessions", v["max-sessions"], DEFAULT_MAX_SESSIONS, 1),
    maxRuns: integer("--max-runs", v["max-runs"], DEFAULT_MAX_RUNS, 1),
    maxRunsPerSession: integer("--max-runs-per-session", v["max-runs-per-session"], DEFAULT_MAX_RUNS_PER_SESSION, 1),
    sessionIdleMs: integer("--session-idle-ms", v["session-idle-ms"], DEFAULT_SESSION_IDLE_MS, 1),
    draftHosts: (v["draft-host"] ?? []).map((h) => {
      const host = normalDraftHost(h);
      if (host === undefined) throw new UsageError(`--draft-host ${JSON.stringify(h)}: expected a host, optionally with a port, like 127.0.0.1:8080`);
      return host;
    }),
    watch: v.watch ?? false,
    cache: !v["no-cache"],
    json: v.json ?? false,
    strict: v.strict ?? false,
    format: v.json ? "json" : "text",
    ignore: v.ignore ?? [],
    offline: v.offline ?? false,
    arazzo: arazzoOptions(mode, v),
    positionals: parsed.positionals,
  };
  if (v.http !== undefined) {
    if (mode !== "serve") throw new UsageError(`--http serves stepfiles; it cannot be combined with --${mode}`);
    options.http = integer("--http", v.http, 0, 0, 65_535);
  }
  if (v["http-token-file"] !== undefined) {
    // Without --http there is nothing to protect with it: saying so beats a token silently unused.
    if (options.http === undefined) throw new UsageError("--http-token-file is only for --http");
    options.httpTokenFile = nonEmpty("--http-token-file", v["http-token-file"]);
  }
  if (v["ledger-dir"] !== undefined) options.ledgerDir = nonEmpty("--ledger-dir", v["ledger-dir"]);
  if (v["record-cases"] !== undefined) options.recordCases = nonEmpty("--record-cases", v["record-cases"]);
  if (v["client-id"] !== undefined) {
    // Silently ignoring it would let someone believe a served run uses that client.
    if (mode !== "auth") throw new UsageError("--client-id is only for --auth");
    options.clientId = nonEmpty("--client-id", v["client-id"]);
  }
  authOptions(mode, v, options);
  if (v["token-store"] !== undefined) {
    if (mode !== "serve" && mode !== "auth") throw new UsageError(`--token-store is for serving and --auth; it cannot be combined with --${mode}`);
    options.tokenStore = nonEmpty("--token-store", v["token-store"]);
  }
  if (v.contact !== undefined) {
    if (!EMAIL.test(v.contact)) throw new UsageError(`--contact ${JSON.stringify(v.contact)}: expected an email address`);
    options.contact = v.contact;
  }
  ledgerOptions(mode, v, options);
  if (mode === "verify" && options.positionals.length === 0) throw new UsageError("--verify needs at least one ledger file");
  mutateOptions(mode, v, options);
  if (mode === "test" && !options.mutate && (options.positionals.length < 1 || options.positionals.length > 2)) {
    throw new UsageError("--test takes a stepfile (or catalog name) and optionally a cases file");
  }
  if (v.strict && mode !== "check") throw new UsageError("--strict is only for --check");
  checkOptions(mode, v, options);
  if (mode === "check" && options.positionals.length === 0) throw new UsageError("--check needs at least one stepfile (or catalog name)");
  if (mode === "auth" && options.positionals.length !== 2) throw new UsageError("--auth takes a stepfile (or catalog name) and a credential name");
  return options;
}

/** --check's own options: anywhere else they would be silently ignored. Rule ids are checked by --check itself, which loads the rules. */
function checkOptions(mode: Options["mode"], v: Record<string, string | boolean | string[] | undefined>, options: Options) {
  for (const flag of ["format", "ignore", "offline"]) {
    if (v[flag] !== undefined && mode !== "check") throw new UsageError(`--${flag} is only for --check`);
  }
  const format = v.format;
  if (typeof format === "string") {
    if (format !== "text" && format !== "json" && format !== "sarif") throw new UsageError(`--format ${JSON.stringify(format)}: expected text, json or sarif`);
    if (v.json && format !== "json") throw new UsageError(`--json is --format json; it cannot be combined with --format ${format}`);
    options.format = format;
  }
}

/** --mutate and the options that shape it, which mean nothing without it. */
function mutateOptions(mode: Options["mode"], v: Record<string, string | boolean | string[] | undefined>, options: Options) {
  if (v.mutate && mode !== "test") throw new UsageError("--mutate is only for --test");
  for (const flag of ["mutants", "min-score", "seed"]) {
    if (v[flag] !== undefined && !v.mutate) throw new UsageError(`--${flag} is only for --test --mutate`);
  }
  if (!v.mutate) return;
  const mutate: NonNullable<Options["mutate"]> = {};
  if (typeof v.mutants === "string") mutate.perEntry = integer("--mutants", v.mutants, 0, 1);
  if (typeof v.seed === "string") mutate.seed = integer("--seed", v.seed, 0, 0, 2 ** 32 - 1);
  if (typeof v["min-score"] === "string") {
    const raw = v["min-score"].trim();
    const score = /^(?:0|1|0?\.\d+|1\.0*)$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(score >= 0 && score <= 1)) throw new UsageError(`--min-score ${JSON.stringify(v["min-score"])}: expected a number from 0 to 1, like 0.9`);
    mutate.minScore = score;
  }
  options.mutate = mutate;
}

/** --from-arazzo's options; --source and --server also name sources of an Arazzo document served or checked. */
function arazzoOptions(mode: Options["mode"], v: Record<string, string | boolean | string[] | undefined>): ArazzoOptions {
  for (const flag of ["workflow", "out"]) {
    if (v[flag] !== undefined && mode !== "from-arazzo") throw new UsageError(`--${flag} is only for --from-arazzo`);
  }
  for (const flag of ["source", "server"]) {
    if (v[flag] !== undefined && mode !== "from-arazzo" && mode !== "serve" && mode !== "check") throw new UsageError(`--${flag} is for Arazzo documents: --from-arazzo, serving or --check`);
  }
  const pairs = (flag: string, check: (value: string) => boolean, expected: string) =>
    new Map(
      ((v[flag] as string[] | undefined) ?? []).map((pair) => {
        const at = pair.indexOf("=");
        const name = pair.slice(0, at);
        const value = pair.slice(at + 1);
        if (at <= 0 || !check(value)) throw new UsageError(`--${flag} ${JSON.stringify(pair)}: expected <source name>=${expected}`);
        return [name, value] as const;
      }),
    );
  const options: ArazzoOptions = {
    sources: pairs("source", (value) => value !== "", "<file>"),
    servers: pairs("server", (value) => /^https?:\/\/[^/]/.test(value), "<https:// URL>"),
  };
  if (mode === "from-arazzo") {
    options.file = nonEmpty("--from-arazzo", v["from-arazzo"] as string);
    if (v.out === undefined) throw new UsageError("--from-arazzo needs --out <folder> to write the stepfiles into");
    options.out = nonEmpty("--out", v.out as string);
    if (v.workflow !== undefined) options.workflow = nonEmpty("--workflow", v.workflow as string);
  }
  return options;
}

/** --auth's own options: anywhere else they would be silently ignored. */
function authOptions(mode: Options["mode"], v: Record<string, string | boolean | string[] | undefined>, options: Options) {
  for (const flag of ["client-auth-method", "redirect-port", "auth-wait-ms"]) {
    if (v[flag] !== undefined && mode !== "auth") throw new UsageError(`--${flag} is only for --auth`);
  }
  const method = v["client-auth-method"];
  if (typeof method === "string") {
    if (options.clientId === undefined) throw new UsageError("--client-auth-method says how the --client-id client sends its secret; give --client-id too");
    if (method !== "client_secret_basic" && method !== "client_secret_post") throw new UsageError(`--client-auth-method ${JSON.stringify(method)}: expected client_secret_basic or client_secret_post`);
    options.clientAuthMethod = method;
  }
  if (typeof v["auth-wait-ms"] === "string") options.authWaitMs = integer("--auth-wait-ms", v["auth-wait-ms"], 0, 1);
  if (typeof v["redirect-port"] === "string") options.redirectPort = integer("--redirect-port", v["redirect-port"], 0, 1, 65_535);
}

/** The signing and reading options each belong to one mode: anywhere else they would be silently ignored. */
function ledgerOptions(mode: Options["mode"], v: Record<string, string | boolean | string[] | undefined>, options: Options) {
  const only = (flag: string, modes: Array<Options["mode"]>) => {
    if (!modes.includes(mode)) throw new UsageError(`${flag} is only for ${modes.map((m) => (m === "serve" ? "serving" : `--${m}`)).join(" and ")}`);
  };
  if (typeof v["signing-key"] === "string") {
    only("--signing-key", ["serve"]);
    options.signingKey = nonEmpty("--signing-key", v["signing-key"]);
  }
  if (typeof v["checkpoint-every"] === "string") {
    only("--checkpoint-every", ["serve"]);
    options.checkpointEvery = integer("--checkpoint-every", v["checkpoint-every"], 0, 1);
  }
  if (typeof v.key === "string") {
    only("--key", ["verify"]);
    options.key = nonEmpty("--key", v.key);
  }
  if (v.json) only("--json", ["verify", "check", "test"]);
  if (v.json && mode === "test" && !v.mutate) throw new UsageError("--json with --test is only for --test --mutate");
  if (v["no-cache"]) only("--no-cache", ["serve", "test"]);
  if (typeof v.html === "string") {
    only("--html", ["show"]);
    options.html = nonEmpty("--html", v.html);
  }
  if (mode === "keygen" && options.positionals.length !== 1) throw new UsageError("--keygen takes one folder to write the key pair into");
  if (mode === "show" && options.positionals.length === 0) throw new UsageError("--show needs at least one ledger file");
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${name} ${JSON.stringify(raw)}: expected a whole number`);
  const value = Number(raw);
  if (value < min || value > max) throw new UsageError(`${name} ${raw}: expected a number from ${min} to ${max}`);
  return value;
}

function nonEmpty(name: string, raw: string): string {
  if (raw.trim() === "") throw new UsageError(`${name} needs a value`);
  return raw;
}

function draftCredential(raw: string): { name: string; hosts: string[] } {
  const m = /^([^=]+)=(.+)$/.exec(raw);
  const fail = () => new UsageError(`--draft-credential ${JSON.stringify(raw)}: expected <name>=<host>[,<host>...]`);
  if (!m) throw fail();
  const name = m[1]!;
  const hosts = m[2]!.split(",").map((h) => h.trim().toLowerCase());
  if (!IDENTIFIER.test(name) || hosts.some((h) => !HOST.test(h))) throw fail();
  return { name, hosts };
}

/** A DNS name: an IP literal needs no permission (declaring it in the stepfile is the choice), and there is no wildcard. */
function privateHost(raw: string): string {
  const host = raw.trim().toLowerCase().replace(/\.+$/, "");
  if (!/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(host) || isIP(host) !== 0) {
    throw new UsageError(`--allow-private-host ${JSON.stringify(raw)}: expected a host name like tracker.internal.example (no port, no wildcard; an IP address declared in a stepfile is already allowed)`);
  }
  return host;
}
