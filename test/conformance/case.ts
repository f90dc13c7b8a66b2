// The shape of a `*.case.yaml` (see the shared suite's README and section 10
// of the stepfile format), and reading one from disk.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { ApiRoute } from "../support/api-fixture.js";
import type { McpFixtureOptions } from "../support/mcp-fixture.js";

export type Action = { submit: unknown } | { call: string; arguments?: Record<string, unknown> };

export interface ReplyExpectation {
  state?: string;
  step?: string;
  failures?: string[];
  error?: string;
  contain?: string;
  is_error?: boolean;
  /** The call either came back as an error result or ended the run with this error type. */
  call_failed?: string;
}

export interface RequestExpectation {
  method: string;
  path: string;
  /** Lower-case names; each must be present with this value. */
  headers?: Record<string, string>;
  /** Lower-case names that must not be sent at all. */
  absent?: string[];
}

export interface ConformanceCase {
  name: string;
  api?: { routes: ApiRoute[] };
  mcp?: McpFixtureOptions;
  credentials?: Record<string, string>;
  stepfile: Record<string, unknown>;
  inputs: Record<string, unknown>;
  actions?: Action[];
  expect: {
    replies: ReplyExpectation[];
    ledger: string[];
    requests?: RequestExpectation[];
    /** Strings (secrets) that must appear in no ledger record and nowhere on stderr. */
    ledger_lacks?: string[];
    /** Strings that must appear in no reply. */
    replies_lack?: string[];
  };
}

/** Parses a case file, refusing shapes the player would otherwise silently misread. */
export function readCase(file: string): ConformanceCase {
  const data = parse(readFileSync(file, "utf8")) as Partial<ConformanceCase> | null;
  if (!data || typeof data !== "object") throw new Error(`${file}: not a YAML mapping`);
  if (typeof data.name !== "string") throw new Error(`${file}: name must be a string`);
  if (!data.stepfile || typeof data.stepfile !== "object") throw new Error(`${file}: stepfile must be a mapping`);
  if (!data.expect || !Array.isArray(data.expect.replies) || !Array.isArray(data.expect.ledger)) {
    throw new Error(`${file}: expect needs replies and ledger lists`);
  }
  return { ...data, inputs: data.inputs ?? {}, actions: data.actions ?? [] } as ConformanceCase;
}
