// Plays one conformance case against the built CLI over stdio, as a real
// client would, and says what differed. Written from the shared suite's
// README: fixtures, substitution, the fixed limits, replies, ledger and the
// requests the fixtures saw.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { startApiFixture, type ApiFixture, type ReceivedRequest } from "../support/api-fixture.js";
import { startMcpFixture, type McpFixture } from "../support/mcp-fixture.js";
import { REPLY_MS } from "../support/budget.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import type { Action, ConformanceCase, ReplyExpectation, RequestExpectation } from "./case.js";

/** The limits every case is played under (README step 3). */
export const CASE_LIMITS = ["--calls-per-step", "8", "--tool-result-chars", "10000", "--request-timeout-ms", "5000", "--response-bytes", "1000000"];

/** What one action got back: the tool result, or why there was none. */
export type Reply = { result: CallToolResult } | { thrown: string };

export interface PlayOptions {
  /** Sees every reply as it arrives: for debugging a case, not for checks. */
  trace?: (index: number, reply: Reply) => void;
}

export async function playCase(c: ConformanceCase, options: PlayOptions = {}): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "stepgate-conformance-"));
  let api: ApiFixture | undefined;
  let mcp: McpFixture | undefined;
  let stepgate: SpawnedStepgate | undefined;
  try {
    if (c.api) api = await startApiFixture(c.api.routes);
    if (c.mcp) mcp = await startMcpFixture(c.mcp);
    const stepfile = substitute(c.stepfile, fixtureValues(api, mcp)) as Record<string, unknown>;
    const id = String(stepfile.id);
    // Written as JSON: the format says JSON and YAML spellings load the same.
    const stepfilePath = join(dir, `${id}.stepfile.json`);
    await writeFile(stepfilePath, JSON.stringify(stepfile, null, 2));
    const ledgerDir = join(dir, "ledger");

    try {
      stepgate = await spawnStepgate(["--ledger-dir", ledgerDir, ...CASE_LIMITS, stepfilePath], credentialEnv(c.credentials ?? {}));
    } catch (error) {
      return [(error as Error).message];
    }

    const replies = await drive(stepgate, id, c.inputs, c.actions ?? []);
    replies.forEach((reply, i) => options.trace?.(i, reply));
    // Closing first ends the process, so every ledger line is flushed before we read.
    await stepgate.close();
    const ledgerText = await readLedger(ledgerDir, id);

    const problems: string[] = [];
    problems.push(...checkReplies(c.expect.replies, replies));
    problems.push(...checkLedger(c.expect.ledger, ledgerText));
    if (c.expect.requests) problems.push(...checkRequests(c.expect.requests, api?.received ?? []));
    for (const secret of c.expect.ledger_lacks ?? []) {
      const where = [ledgerText.ok ? ledgerText.text : "", stepgate.stderr()];
      if (where.some((text) => text.includes(secret))) problems.push(`ledger or stderr contains ${JSON.stringify(secret)}`);
    }
    for (const secret of c.expect.replies_lack ?? []) {
      replies.forEach((reply, i) => {
        if (JSON.stringify(reply).includes(secret)) problems.push(`reply ${i} contains ${JSON.stringify(secret)}`);
      });
    }
    return problems;
  } finally {
    await stepgate?.close();
    await Promise.all([api?.close(), mcp?.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

async function drive(stepgate: SpawnedStepgate, tool: string, inputs: Record<string, unknown>, actions: readonly Action[]): Promise<Reply[]> {
  const replies: Reply[] = [];
  // Each reply gets its share of the per-case time limit, so a hung reply is reported as a problem rather than a bare timeout.
  const call = async (name: string, args: Record<string, unknown>): Promise<Reply> => {
    try {
      return { result: (await stepgate.client.callTool({ name, arguments: args }, { timeout: REPLY_MS })) as CallToolResult };
    } catch (error) {
      return { thrown: (error as Error).message };
    }
  };
  const first = await call(tool, inputs);
  replies.push(first);
  const run = "result" in first ? (first.result.structuredContent as { run?: unknown } | undefined)?.run : undefined;
  for (const action of actions) {
    // Once the connection is gone every later call throws the same way; one report is enough.
    if ("thrown" in replies.at(-1)!) break;
    if ("submit" in action) replies.push(await call("stepgate_submit", { run, output: action.submit }));
    else replies.push(await call("stepgate_call", { run, operation: action.call, arguments: action.arguments ?? {} }));
  }
  return replies;
}

function checkReplies(expected: readonly ReplyExpectation[], replies: readonly Reply[]): string[] {
  const problems: string[] = [];
  if (expected.length !== replies.length) problems.push(`expected ${expected.length} replies, got ${replies.length}`);
  expected.forEach((want, i) => {
    const reply = replies[i];
    if (!reply) return;
    if ("thrown" in reply) {
      problems.push(`reply ${i}: the call threw: ${reply.thrown}`);
      return;
    }
    const got = reply.result;
    const s = (got.structuredContent ?? {}) as { state?: unknown; step?: { step?: unknown }; failures?: Array<{ gate?: unknown }>; error?: unknown };
    const text = got.content
      .filter((b): b is { type: "text"; text: string } => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    const differs = (what: string, want: unknown, have: unknown) => {
      if (JSON.stringify(want) !== JSON.stringify(have)) problems.push(`reply ${i}: ${what} ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`);
    };
    if (want.state !== undefined) differs("state", want.state, s.state);
    if (want.step !== undefined) differs("step", want.step, s.step?.step);
    if (want.failures !== undefined) differs("failures", [...want.failures].sort(), (s.failures ?? []).map((f) => f.gate).sort());
    if (want.error !== undefined) differs("error", want.error, s.error);
    if (want.is_error !== undefined) differs("isError", want.is_error, got.isError ?? false);
    if (want.contain !== undefined && !text.includes(want.contain)) {
      problems.push(`reply ${i}: text lacks ${JSON.stringify(want.contain)}; text was ${JSON.stringify(text.slice(0, 400))}`);
    }
    if (want.call_failed !== undefined && got.isError !== true && !(s.state === "failed" && s.error === want.call_failed)) {
      problems.push(`reply ${i}: neither an error result nor a run failed with ${want.call_failed}`);
    }
  });
  return problems;
}

type LedgerText = { ok: true; text: string } | { ok: false; why: string };

/** The one ledger file this run wrote, `<stepfile id>-<run id>.jsonl`. */
async function readLedger(dir: string, id: string): Promise<LedgerText> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.startsWith(`${id}-`) && f.endsWith(".jsonl"));
  if (files.length === 0) return { ok: false, why: "no ledger file was written" };
  if (files.length > 1) return { ok: false, why: `expected one ledger file, found ${files.join(", ")}` };
  return { ok: true, text: await readFile(join(dir, files[0]!), "utf8") };
}

function checkLedger(expected: readonly string[], ledger: LedgerText): string[] {
  if (!ledger.ok) return expected.length === 0 ? [] : [`ledger: ${ledger.why}`];
  const types: unknown[] = [];
  for (const line of ledger.text.split("\n").filter((l) => l.trim() !== "")) {
    try {
      types.push((JSON.parse(line) as { type?: unknown }).type);
    } catch {
      return [`ledger: a line is not JSON: ${line.slice(0, 200)}`];
    }
  }
  return JSON.stringify(types) === JSON.stringify(expected) ? [] : [`ledger: ${types.join(",")} , expected ${expected.join(",")}`];
}

function checkRequests(expected: readonly RequestExpectation[], received: readonly ReceivedRequest[]): string[] {
  const problems: string[] = [];
  const line = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
  if (expected.map(line).join(" | ") !== received.map(line).join(" | ")) {
    problems.push(`requests: [${received.map(line).join(", ")}], expected [${expected.map(line).join(", ")}]`);
  }
  expected.forEach((want, i) => {
    const got = received[i];
    if (!got) return;
    for (const [name, value] of Object.entries(want.headers ?? {})) {
      if (got.headers[name] !== value) problems.push(`request ${i}: header ${name} is ${JSON.stringify(got.headers[name])}, expected ${JSON.stringify(value)}`);
    }
    for (const name of want.absent ?? []) {
      if (got.headers[name] !== undefined) problems.push(`request ${i}: header ${name} must be absent`);
    }
  });
  return problems;
}

function fixtureValues(api: ApiFixture | undefined, mcp: McpFixture | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  if (api) Object.assign(values, { "${api.origin}": api.origin, "${api.host}": api.host });
  if (mcp) Object.assign(values, { "${mcp.origin}": mcp.origin, "${mcp.host}": mcp.host });
  return values;
}

/** Replaces the fixture placeholders in every string value (keys are paths like /items/{id} and are left alone). */
function substitute(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === "string") return Object.entries(values).reduce((s, [from, to]) => s.replaceAll(from, to), value);
  if (Array.isArray(value)) return value.map((v) => substitute(v, values));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, values)]));
  return value;
}

/** Credential `catalogue-api` -> `CATALOGUE_API_API_KEY`, as section 4 of the format names it. */
export function credentialEnv(credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([name, value]) => [`${name.toUpperCase().replaceAll("-", "_")}_API_KEY`, value]));
}
