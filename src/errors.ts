// Every error the seed names is one typed class whose `name` is the error
// type users read. Each carries structured `details` so a transport can show
// them without parsing the message. Messages never carry a secret value.

import { capPath, capQuotes, capText, LISTED_ISSUES } from "./quote.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export abstract class StepgateError extends Error {
  abstract override readonly name: ErrorType | "InternalError";
  readonly details: Record<string, Json>;

  constructor(message: string, details: Record<string, Json> = {}) {
    super(message);
    this.details = details;
  }
}

/** One problem found while loading a stepfile. */
export interface Issue {
  /** JSON path into the document, like `steps[1].gates[0].predicate`. */
  path: string;
  message: string;
  /** 1-based line and column, for YAML (and JSON) sources. */
  line?: number;
  column?: number;
  /** The id of the rule that found it (src/loader/rules/index.ts lists them; docs/checks.md explains each). */
  rule?: string;
}

export function formatIssue(issue: Issue, file?: string): string {
  const where = issue.line !== undefined ? `${file ?? ""}${file ? ":" : "line "}${issue.line}:${issue.column ?? 1}` : file ?? "";
  const path = issue.path === "" ? "(top level)" : issue.path;
  return `${where ? `${where} ` : ""}${capPath(path)}: ${capQuotes(issue.message)}`;
}

/** The issues a message lists: each quote capped, at most LISTED_ISSUES of them, then how many more. */
export function listIssues(issues: readonly Issue[], file?: string): string {
  const lines = issues.slice(0, LISTED_ISSUES).map((i) => `  ${formatIssue(i, file)}`);
  if (issues.length > LISTED_ISSUES) lines.push(`  ... and ${issues.length - LISTED_ISSUES} more issues`);
  return lines.join("\n");
}

export class StepfileInvalid extends StepgateError {
  readonly name = "StepfileInvalid";
  readonly issues: Issue[];
  constructor(allIssues: Issue[], file?: string) {
    const issues = allIssues.slice(0, LISTED_ISSUES).map((i) => ({ ...i, path: capPath(i.path), message: capQuotes(i.message) }));
    super(`${file ?? "stepfile"} is invalid:\n${listIssues(allIssues, file)}`, {
      ...(file ? { file } : {}),
      issues: issues.map((i) => ({ path: i.path, message: i.message, ...(i.line !== undefined ? { line: i.line, column: i.column ?? 1 } : {}) })),
    });
    this.issues = issues;
  }
}

export class StepfileUnreadable extends StepgateError {
  readonly name = "StepfileUnreadable";
  constructor(file: string, reason: string) {
    // A path is input too: its quote is capped, its whole kept in details.
    super(`${capText(file)} could not be read: ${reason}`, { file, reason });
  }
}

export class PreflightFailed extends StepgateError {
  readonly name = "PreflightFailed";
  readonly item: string;
  constructor(item: string, reason: string) {
    super(`preflight failed at ${item}: ${reason}`, { item, reason });
    this.item = item;
  }
}

export class CredentialUnavailable extends StepgateError {
  readonly name = "CredentialUnavailable";
  constructor(credential: string, variable: string) {
    super(`credential ${credential} is not set (set ${variable} in Stepgate's environment)`, { credential, variable });
  }
}

export class SettingUnavailable extends StepgateError {
  readonly name = "SettingUnavailable";
  constructor(setting: string, variable: string, reason = "is not set") {
    super(`setting ${setting} ${reason} (environment variable ${variable})`, { setting, variable });
  }
}

export class AuthorizationFailed extends StepgateError {
  readonly name = "AuthorizationFailed";
  constructor(reason: string, details: Record<string, Json> = {}) {
    super(`authorization failed: ${reason}`, details);
  }
}

export class InvalidGrant extends StepgateError {
  readonly name = "InvalidGrant";
  constructor(credential: string) {
    super(`the OAuth grant of credential ${credential} was revoked (invalid_grant); authorize it again with stepgate --auth`, { credential });
  }
}

export class EgressDenied extends StepgateError {
  readonly name = "EgressDenied";
  constructor(host: string, url?: string) {
    super(`request to ${host} refused: no tool of this stepfile declares that host`, { host, ...(url ? { url } : {}) });
  }
}

export class ToolCallFailed extends StepgateError {
  readonly name = "ToolCallFailed";
  readonly status: number | null;
  readonly body: string;
  /** What went wrong without the operation or the body ("HTTP 503, the API asked to wait 120 s, ..."), for a caller that names the request its own way. */
  readonly what: string;
  constructor(operation: string, status: number | null, body: string, reason?: string) {
    // A reason given with a status (an encoding Stepgate cannot read, a wait too long) is what the client needs to hear.
    const what = status === null ? (reason ?? "no response") : reason ? `HTTP ${status}, ${reason}` : `HTTP ${status}`;
    super(`${operation} failed: ${what}${body ? `: ${body}` : ""}`, { operation, status, body, ...(reason ? { reason } : {}) });
    this.status = status;
    this.body = body;
    this.what = what;
  }
}

export class ResponseTooLarge extends StepgateError {
  readonly name = "ResponseTooLarge";
  constructor(what: string, limit: number) {
    super(`the response of ${what} is larger than --response-bytes (${limit} bytes)`, { what, limit });
  }
}

export class PlaceholderUnresolved extends StepgateError {
  readonly name = "PlaceholderUnresolved";
  constructor(step: string, placeholder: string) {
    super(`step ${step}: placeholder {{${placeholder}}} has no value`, { step, placeholder });
  }
}

export interface GateFailure {
  gate: string;
  diagnosis: string;
}

export class GateFailed extends StepgateError {
  readonly name = "GateFailed";
  readonly failures: GateFailure[];
  constructor(step: string, failures: GateFailure[]) {
    const list = failures.map((f) => `${f.gate}: ${f.diagnosis}`).join("; ");
    super(`step ${step} failed its gates: ${list}`, { step, failures: failures.map((f) => ({ gate: f.gate, diagnosis: f.diagnosis })) });
    this.failures = failures;
  }
}

export class CallArgumentsInvalid extends StepgateError {
  readonly name = "CallArgumentsInvalid";
  constructor(step: string, call: string, problems: string) {
    super(`step ${step}, call ${call}: computed arguments are invalid: ${problems}`, { step, call, problems });
  }
}

export class CallLimitReached extends StepgateError {
  readonly name = "CallLimitReached";
  constructor(step: string, limit: number) {
    super(`step ${step} reached the limit of ${limit} calls (--calls-per-step)`, { step, limit });
  }
}

export class RunNotActive extends StepgateError {
  readonly name = "RunNotActive";
  constructor(run: string, state: "finished" | "failed" | "abandoned" | "unknown") {
    const why = state === "unknown" ? "does not exist here" : `has ${state === "abandoned" ? "been abandoned" : state}`;
    super(`run ${run} ${why}`, { run, state });
  }
}

export class DraftRefused extends StepgateError {
  readonly name = "DraftRefused";
  /** Every draft rule broken, so one try tells the author all there is to fix. */
  /** `wayForward` is required: every refusal says what the author can do instead (issue 14). */
  constructor(rules: readonly string[], wayForward: string) {
    super(`draft refused: ${rules.join("; ")}. ${wayForward}`, { rule: rules[0] ?? "", rules: [...rules] });
  }
}

export class UrlNotPublic extends StepgateError {
  readonly name = "UrlNotPublic";
  /** `wayForward` is required: every refusal says what the author can do instead (issue 14). */
  constructor(url: string, reason: string, wayForward: string) {
    // What was given as a URL may be a whole pasted document: show its start only.
    const shown = url.length > 120 ? `${url.slice(0, 120)}...` : url;
    super(`${shown} is not a public https URL: ${reason}. ${wayForward}`, { url: shown, reason });
  }
}

export class ApiDocumentInvalid extends StepgateError {
  readonly name = "ApiDocumentInvalid";
  constructor(reason: string, details: Record<string, Json> = {}) {
    super(`API document invalid: ${reason}`, details);
  }
}

/**
 * Not one of the seed's types: the server cannot take a new run now (open
 * runs at --max-runs or --max-runs-per-session, or no file descriptor free
 * for its ledger). Nothing was started or written; the same call may succeed
 * later (`retryable`), and the message names no path of the machine.
 */
export class ServerBusy extends StepgateError {
  readonly name = "ServerBusy";
  constructor(reason: string, details: Record<string, Json> = {}) {
    super(`${reason}; no run was started, try again later`, { ...details, retryable: true });
  }
}

/**
 * Not one of the seed's types: a record of the run's ledger could not be
 * written (a full disk, a quota), so the run stops: nothing may happen in a
 * run that its ledger does not hold. The message names no path; the
 * operator's log does.
 */
export class LedgerUnwritable extends StepgateError {
  readonly name = "LedgerUnwritable";
  constructor(problem: string) {
    super(`the server could not write this run's ledger (${problem}), so the run was stopped: nothing happens in a run that its ledger does not record`, { problem, retryable: false });
  }
}

/** Not one of the seed's types: a defect of Stepgate itself, reported without a stack trace. */
export class InternalError extends StepgateError {
  readonly name = "InternalError";
  constructor(reason: string) {
    super(`Stepgate hit an internal error: ${reason}`, { reason });
  }
}

export const ERROR_TYPES = [
  "StepfileInvalid",
  "StepfileUnreadable",
  "PreflightFailed",
  "CredentialUnavailable",
  "SettingUnavailable",
  "AuthorizationFailed",
  "InvalidGrant",
  "EgressDenied",
  "ToolCallFailed",
  "ResponseTooLarge",
  "PlaceholderUnresolved",
  "GateFailed",
  "CallArgumentsInvalid",
  "CallLimitReached",
  "RunNotActive",
  "DraftRefused",
  "UrlNotPublic",
  "ApiDocumentInvalid",
  "ServerBusy",
  "LedgerUnwritable",
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];
