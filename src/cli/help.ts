// `stepgate --help`. Keep this true in the same commit as any option change.

export const HELP = `Stepgate: run stepfiles, gated procedures for agents, as an MCP server.

Usage:
  stepgate [options] <stepfile | catalog name>...        serve over stdio
  stepgate --http <port> [options] <stepfiles>...         serve Streamable HTTP on 127.0.0.1:<port>/mcp (0: a free port)
  stepgate --list [<domain or word>...]                   the bundled catalog by domain, with what each entry needs;
                                                          words filter it (e.g. --list finance, --list keyless)
  stepgate --test <stepfile | catalog name> [<cases.yaml>]  offline gate cases (default: <id>.cases.yaml beside the stepfile)
  stepgate --test --mutate [--json] [--mutants <n>] [--min-score <0..1>] [--seed <n>]
                 [<stepfile | catalog name> [<cases.yaml>] | <conformance.case.yaml>]...
                                                          play wrong outputs (and likely-equivalent ones) derived from
                                                          each entry expected to pass through the step's gates, offline;
                                                          report the survivors (no file: the whole catalog)
  stepgate --check [--strict] [--json | --format text|json|sarif] [--ignore <rule>]... [--offline]
                 <stepfile | folder | catalog name>...
                                                          load each stepfile (a folder: every <id>.stepfile.yaml and
                                                          Arazzo document below it) and print every error and warning by
                                                          file, line and column, each with its rule id (what
                                                          stepgate_validate reports), for CI; --format sarif writes
                                                          SARIF 2.1.0; --ignore turns a warning rule off (repeatable);
                                                          a document pinned by url is fetched, and each MCP server
                                                          a tool names is listed, as preflight would, unless
                                                          --offline; exit 1 on any error, with --strict on any
                                                          warning too (docs/checks.md lists the rules)
  stepgate --verify [--key <public.pem>] [--json] <ledger.jsonl>...
                                                          check ledgers: intact and signed, unsigned, open, tampered,
                                                          signature invalid or wrong key (exit 0 only when intact and closed,
                                                          and signed by that key when --key is given)
  stepgate --show <ledger.jsonl>...                       a run as a person reads it (a --record-cases file stands for the ledger beside it)
  stepgate --show --html <page.html> <ledger.jsonl>...    the runs as one self-contained page with timelines to scale
  stepgate --keygen <dir>                                 an Ed25519 key pair for signing ledgers (never overwrites)
  stepgate --auth <stepfile | catalog name> <credential> [--client-id <id> [--client-auth-method <m>]]
                 [--redirect-port <n>] [--auth-wait-ms <ms>] [--token-store <file>]
  stepgate --from-arazzo <arazzo file> [--workflow <id>] --out <dir> [--source <name>=<file>] [--server <name>=<url>]
                                                          write <workflowId>.stepfile.yaml for each workflow of an Arazzo
                                                          document that converts; name each one refused, with its step
                                                          and construct (exit 1 when any was refused); docs/arazzo.md
  stepgate --help | --version

A stepfile argument is a path ending in .yaml, .yml or .json, or the name of
a catalog entry (see --list). A path to an Arazzo document (top-level
arazzo field) serves each workflow that converts as a tool, exactly as its
converted stepfile would, and --check checks it. With no stepfiles, only the authoring tools
(and stepgate_call/stepgate_submit, which drive stepgate_try runs) are served.

Limits and options:
  --calls-per-step <n>        most stepgate_call calls one step may make (default 100)
  --tool-result-chars <n>     longest tool result shown to the client (default 20000)
  --run-idle-ms <ms>          a run (or HTTP session) idle this long is abandoned (default 1800000)
  --request-timeout-ms <ms>   how long one outgoing request may take, body included (default 60000); a fetch
                              while loading, checking or inspecting has at most this or 15000, retries included
  --response-bytes <n>        largest response read from a tool, verifier or document (default 10485760)
  --ledger-dir <dir>          one ledger file per run, <stepfile id>-<run id>.jsonl; else standard error
  --contact <email>           sent in the User-Agent as mailto:<email>
  --draft-credential <name>=<host>[,<host>...]   let stepgate_try drafts use this credential on these hosts (repeatable)
  --draft-setting <name>      let stepgate_try drafts use this setting from the environment (repeatable)
  --draft-host <host[:port]>  let stepgate_try drafts and stepgate_inspect_api reach this exact host even though
                              it is not public (loopback, private); your deliberate choice (repeatable)
  --allow-private-host <host>  let runs, --check and Arazzo source fetches reach this DNS name although it
                              resolves to a private, loopback or link-local address (a self-hosted API; repeatable)
  --max-stepfile-bytes <n>    largest stepfile or cases file read; larger ones are refused before parsing (default 4194304)
  --max-sessions <n>          with --http: most sessions open at once; at the cap the longest-idle session
                              without an active run is closed for a new one, and only when every session
                              holds a run does initialize get 503 + Retry-After (default 1000)
  --max-runs <n>              most runs open at once in the server; a start past it gets ServerBusy (retryable)
                              (default 10000)
  --max-runs-per-session <n>  most runs open at once in one session (over HTTP 2026-07-28, every client's runs
                              together: they share one session); a start past it gets ServerBusy (default 1000)
  --session-idle-ms <ms>      with --http: a session that never started a run is closed after this long
                              without a request (default 300000; never longer than --run-idle-ms)
  --http-token-file <file>    with --http: every request must carry Authorization: Bearer <the token in this
                              file>; refused if others can read the file (or set STEPGATE_HTTP_TOKEN_FILE);
                              new:<file> writes a fresh random token there (0600, never overwriting) and
                              prints where, never the token. Without it any local process can use the server
  --record-cases <dir>        write each finished or failed run as <stepfile id>-<run id>.cases.yaml,
                              which stepgate --test replays
  --signing-key <file>        sign each run's closing record and checkpoints with this Ed25519 private key
                              (PEM, from --keygen; or set STEPGATE_SIGNING_KEY to the file)
  --checkpoint-every <n>      with a signing key: a signed checkpoint record every n records (default 64)
  --source <name>=<file>      Arazzo documents: use this local copy of sourceDescription <name> (inlined
                              into the stepfile) instead of its url (repeatable)
  --server <name>=<url>       Arazzo documents: send source <name>'s requests to this base URL instead of
                              its document's first server (repeatable)
  --watch                     reload a stepfile, or an Arazzo document and its local sources, on change
  --mutants <n>               with --test --mutate: wrong mutants played per entry at most (default 24; half as
                              many again of likely equivalents)
  --min-score <0..1>          with --test --mutate: exit 1 when a file's score ((killed + accepted) / mutants) is
                              below this
  --seed <n>                  with --test --mutate: which mutants are chosen when there are more than --mutants
                              (default 1; the same seed always gives the same mutants)
  --json                      with --test --mutate, --check and --verify: the report as JSON
  --no-cache                  serving and --test: parse and check every stepfile in full, neither reading nor
                              writing the load cache ($XDG_CACHE_HOME/stepgate, else ~/.cache/stepgate)
  --client-id <id>            with --auth: a client registered beforehand (needed when the server offers no dynamic
                              registration); public, or confidential with its secret in <NAME>_CLIENT_SECRET
  --client-auth-method <m>    with --auth --client-id: how that confidential client was registered to send its
                              secret, client_secret_basic or client_secret_post (default: as the server's metadata
                              suggests); printed as <NAME>_CLIENT_AUTH_METHOD, so every refresh sends it the same way
  --redirect-port <n>         with --auth: listen for the redirect on 127.0.0.1:<n> (for servers that require the
                              registered redirect URI's exact port); default any free port
  --auth-wait-ms <ms>         with --auth: how long to wait for the browser's redirect (default 300000)
  --token-store <file>        keep rotated oauth2 refresh tokens in this file (created 0600; refused if others can
                              read it), preferred over the environment at start; with --auth, the new refresh
                              token (or, without one, the access token and its expiry) is written there instead
                              of printed

Environment: credential <name> from <NAME>_API_KEY, or for an oauth2
credential with a token_url from <NAME>_REFRESH_TOKEN and <NAME>_CLIENT_ID
(+ <NAME>_CLIENT_SECRET and <NAME>_CLIENT_AUTH_METHOD); setting <name> from
<NAME> (upper-case, - as _).
OpenTelemetry traces and metrics go out over OTLP/HTTP (JSON) when
OTEL_EXPORTER_OTLP_ENDPOINT (or a per-signal endpoint) is set, or
OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER is otlp; OTEL_SERVICE_NAME and
OTEL_RESOURCE_ATTRIBUTES name the service, OTEL_SDK_DISABLED=true turns it
off. Nothing of OpenTelemetry loads otherwise (docs/observability.md).

--auth authorizes an MCP tool's oauth2 credential in a browser (it prints the
URL and listens on 127.0.0.1 for the redirect), then prints the variables to
set. A server that issues no refresh token gets its access token printed as
<NAME>_API_KEY (or kept in the --token-store), with its expiry: it is not
refreshed, so run --auth again when it expires. It writes nothing to disk unless given --token-store. Without a token
store, a server that rotates refresh tokens spends the environment's token at
the first refresh, so after a restart run --auth again (or use --token-store).

Exit codes: 0 success, 1 a check failed (--verify: a ledger is not intact and
closed; --test: a verdict differs, with --mutate a case does not replay or
a file's score is below --min-score; --check: a stepfile is invalid, or with
--strict has a warning), a stepfile, cases file or signing key is invalid,
--keygen found a key, --show could not read a ledger or --auth could not
authorize, 2 bad usage (with --test and --check, also a stepfile, catalog name
or cases file that cannot be found or read; with --verify, a --key that cannot
be read),
70 an internal error (one line; set STEPGATE_DEBUG=1 for the stack).
`;
