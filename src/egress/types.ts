// The shapes every caller of egress shares. Tool kinds (OpenAPI operation,
// remote MCP tool, verifier) and preflight build these; nothing else in
// Stepgate opens a socket.

/** Where a credential's value goes on the wire. */
export type CredentialPlacement =
  | { in: "header"; name: string }
  | { in: "query"; name: string }
  | { in: "cookie"; name: string }
  | { in: "bearer" }
  | { in: "basic" };

/** A stepfile credential as a request needs it: never its value. */
export interface CredentialRef {
  /** Stepfile credential id, e.g. "catalogue". */
  name: string;
  kind: "api_key" | "bearer" | "basic" | "oauth2";
  /** "host" or "host:port", lower-case: the only hosts the value may go to. */
  hosts: readonly string[];
  /** Used for `api_key` and `bearer`; `basic` always goes as HTTP Basic and `oauth2` as Bearer. */
  placement: CredentialPlacement;
}

/**
 * Where credential values come from. The default reads `<NAME>_API_KEY` from
 * `EgressPolicy.env`; an OAuth refresh flow plugs in here later without
 * touching the request path.
 */
export interface CredentialSource {
  /** The value to attach to one hop; egress drops it when the hop is sent. */
  read(credential: CredentialRef): string | Promise<string>;
  /**
   * Called when a hop carrying the credential was answered 401. Resolving
   * true makes egress send the attempt once more (after a token refresh);
   * absent or false returns the 401 as it is.
   */
  rejected?(credential: CredentialRef): Promise<boolean>;
}

/** What a retry leaves behind (the engine turns it into a `retry` ledger record). */
export interface RetryRecord {
  operation: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Its HTTP status, or null after a network error or missed deadline. */
  status: number | null;
  /** How long egress waits before the next attempt. */
  waitMs: number;
}

import type { AddressGuard } from "./address-guard.js";

export interface EgressPolicy {
  /** URL.host values (lower-case, port only when non-default) the stepfile's tools declare. */
  allowedHosts: ReadonlySet<string>;
  /** "stepgate/<version>" or "stepgate/<version> (mailto:<contact>)"; see `userAgent()`. */
  userAgent: string;
  /** Whole attempt, redirects and body included (`--request-timeout-ms`). */
  timeoutMs: number;
  /**
   * The whole request, every attempt and every wait between them included.
   * Set for the fetches made while loading or checking (src/limits.ts
   * loadFetchMs), which a person or a CI job waits on; unset in a run, where
   * the seed bounds each attempt and the waits only.
   */
  totalMs?: number;
  /** Largest response body read (`--response-bytes`). */
  maxBytes: number;
  /** Where credential values are read from when `credentials` is not given. */
  env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  /** Overrides the env-based credential source (OAuth refresh, tests). */
  credentials?: CredentialSource;
  onRetry?: (record: RetryRecord) => void;
  /**
   * Resolves DNS names and refuses private answers at connect time
   * (address-guard.ts). Default: the system resolver with no private names
   * allowed; the CLI passes one built from --allow-private-host.
   */
  addresses?: AddressGuard;
  /** Injectable so tests need not wait; defaults to a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Watches each request (OpenTelemetry client spans when telemetry is on, src/telemetry); absent: nothing watches. */
  trace?: EgressTrace;
}

/**
 * What egress tells a watcher of its requests, and the only thing it takes
 * back: trace headers for hops to the hosts the stepfile declares. It is
 * never shown a header value, a body or a query string.
 */
export interface EgressTrace {
  /** A request is about to make its first attempt. `route` is the URL path as a template, when the caller knows one. */
  begin(request: { operation: string; method: string; url: URL; route?: string }): EgressSpan;
  /** The current trace context as `_meta` fields, for a remote MCP request's params (traceparent, tracestate). */
  context(): Record<string, string>;
}

export interface EgressSpan {
  /** Headers that continue the trace on a hop (traceparent, tracestate). */
  headers(): Record<string, string>;
  retried(record: RetryRecord): void;
  /** The last answer's status, or what was thrown. */
  end(outcome: { status: number } | { error: unknown }): void;
}

export interface EgressRequest {
  /** Names the call in errors and retry records. */
  operation: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  credential?: CredentialRef;
  /** The URL's path as its template (an OpenAPI path such as `/items/{id}`), so a trace names the route without the argument values in it. */
  route?: string;
  /** Default: true for GET, HEAD, OPTIONS, PUT, DELETE; pass true for `effect: read`. */
  retrySafe?: boolean;
  /**
   * Skips the host allowlist for the seed's two exceptions (an OpenAPI
   * document from its url; MCP authorization metadata). Refused with a credential.
   */
  allowAnyHost?: boolean;
}

export interface EgressResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
  /** The final URL after redirects, without any query-placed credential. */
  url: string;
  /** URL.host of the final hop. */
  host: string;
  /** From the first attempt's start to the last body byte, waits included. */
  durationMs: number;
  attempts: number;
}
