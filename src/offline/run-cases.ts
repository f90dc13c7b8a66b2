// Plays a cases file through the real engine (src/engine), offline: each
// case is one run started with its inputs; each entry is one attempt. Agent
// entries replay their calls through the engine's own call path, then submit
// the output; mechanical entries are checked as the engine runs the step.
// The verdicts are the engine's, so no second gate evaluator exists.
//
// A step's entries are its attempts, as many as the author lists (format
// section 9: "a case may list more attempts for a step than its retries
// allow"; cases test gates, not the live attempt budget): the runs here have
// an unbounded attempt budget, and an entry past the step's retries gets a
// note in the report, not a difference.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { GateFailure, StepgateError } from "../errors.js";
import { jsonEqual } from "../expr/index.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { Limits, RunContext } from "../engine/context.js";
import type { Attempt, RunObserver } from "../engine/observer.js";
import type { Reply } from "../engine/replies.js";
import { Run } from "../engine/run.js";
import type { Case, CaseEntry, CasesFile, Expectation } from "./cases-file.js";
import { ReplayToolbox } from "./replay-toolbox.js";
import { capText } from "../quote.js";

/**
 * Offline there is no verifier to POST to and no person to ask: gates of
 * these kinds are not checked, they take the verdict their entry records.
 */
export const SKIPPED_GATE_KINDS = ["http", "approve"] as const;

export interface EntryResult {
  /** 1-based, as people count entries. */
  index: number;
  step: string;
  line?: number;
  expected: Expectation;
  /** The engine's failing gates; undefined when the attempt never got a verdict. */
  failures?: GateFailure[];
  /** What differs: the verdict, a mechanical call or output, or why there was no verdict. Empty when it agrees. */
  problems: string[];
  /** Gates of this step not checked offline (their verdict is the recorded one), as `<id> (<kind>)`. */
  skipped: string[];
  /** Worth knowing but not a difference: the entry is an attempt past the step's `retries`. */
  note?: string;
  /** A mechanical entry's output as its template computed it from the recorded results. */
  computed?: unknown;
  /** The run stopped because a request was not the next recorded call: the replay, not the stepfile, could go no further. */
  unreplayable?: true;
}

export interface CaseResult {
  name: string;
  line?: number;
  entries: EntryResult[];
  /** Why the case stopped before its last entry, if it did. */
  stopped?: string;
  ok: boolean;
}

export interface CasesReport {
  stepfile: string;
  file: string;
  cases: CaseResult[];
  ok: boolean;
}

export async function runCases(stepfile: LoadedStepfile, file: CasesFile, limits: Limits): Promise<CasesReport> {
  const cases: CaseResult[] = [];
  for (const c of file.cases) cases.push(await runCase(stepfile, c, limits));
  return { stepfile: stepfile.doc.id, file: file.path, cases, ok: cases.every((c) => c.ok) };
}

/** One case, as its own run; `--mutate` plays altered copies of a case through it. */
export async function runCase(stepfile: LoadedStepfile, c: Case, limits: Limits): Promise<CaseResult> {
  // Every case, and every mutant of --mutate (played as a case), starts on a
  // fresh turn of the event loop: a server answering stepgate_test serves
  // its other sessions between runs instead of after hundreds of them.
  await nextTurn();
  const toolbox = await ReplayToolbox.open(stepfile);
  const results: EntryResult[] = [];
  let next = 0;
  let current: { entry: CaseEntry; index: number; note?: string } | undefined;
  let stopped: string | undefined;
  /** Entries begun per step: its attempts so far. */
  const attempts = new Map<string, number>();

  const begin = (entry: CaseEntry) => {
    const attempt = (attempts.get(entry.step) ?? 0) + 1;
    attempts.set(entry.step, attempt);
    const note = pastRetries(stepfile, entry.step, attempt);
    current = { entry, index: next, ...(note ? { note } : {}) };
    next += 1;
    toolbox.judging(entry.expect);
  };
  const withNote = (result: EntryResult): EntryResult => (current?.note ? { ...result, note: current.note } : result);
  const observer: RunObserver = {
    // The engine runs mechanical steps on its own, inside start or submit,
    // so their entries are taken here, as each one begins.
    stepStarted(step, mechanical) {
      if (!mechanical) return;
      const entry = stopped === undefined ? c.steps[next] : undefined;
      if (entry && entry.step !== step) stopped = `entry ${next + 1} is for step ${entry.step}, but the run reached mechanical step ${step}`;
      if (!entry || stopped !== undefined) {
        toolbox.judging(undefined);
        return toolbox.load(undefined);
      }
      begin(entry);
      toolbox.load(entry.calls);
    },
    attempt(attempt) {
      if (!current) return;
      results.push(withNote(judge(stepfile, current.entry, current.index, attempt, toolbox)));
      current = undefined;
    },
  };
  let runs = 0;
  const ctx: RunContext = {
    limits,
    // Offline runs keep no ledger: the report is their record.
    ledger: () => ({ append: () => undefined }),
    newRunId: () => `case-${++runs}`,
    openToolbox: (_stepfile, _ledger, checkInputs) => {
      checkInputs();
      return Promise.resolve(toolbox);
    },
    // Verifiers (toolbox.verify) and approvals answer from the entry being judged.
    approver: toolbox.approver,
    // The file says how many attempts there are.
    attemptBudget: "unbounded",
    observe: () => observer,
  };

  // An entry that began but got no verdict: the run stopped inside it.
  const unfinished = (reply: Reply) => {
    if (!current) return;
    const reason = toolbox.mismatch ?? (reply.kind === "failed" ? describeError(reply.error) : "the attempt got no verdict");
    const replay = toolbox.mismatch !== undefined ? { unreplayable: true as const } : {};
    results.push(withNote({ ...entryBase(stepfile, current.entry, current.index), problems: [reason], ...replay }));
    current = undefined;
  };

  const started = await Run.start(stepfile, c.inputs, ctx);
  const run = started.run;
  let reply = started.reply;
  let at = waitingAt(reply, undefined);
  unfinished(reply);
  while (stopped === undefined && next < c.steps.length && results.every((r) => r.problems.length === 0)) {
    const entry = c.steps[next]!;
    if (reply.state !== "running" || at === undefined) {
      stopped = `the run ${reply.kind === "failed" ? `failed (${describeError(reply.error)})` : "finished"} before entry ${next + 1}`;
      break;
    }
    if (entry.step !== at) {
      stopped = `entry ${next + 1} is for step ${entry.step}, but the run is at step ${at}`;
      break;
    }
    begin(entry);
    for (const [i, call] of entry.calls.entries()) {
      toolbox.load([call]);
      reply = await run.call(call.tool, call.arguments);
      if (toolbox.unused().length > 0 || reply.kind === "failed") {
        const why = reply.kind === "call" ? reply.text : reply.kind === "failed" ? describeError(reply.error) : reply.kind;
        results.push(withNote({ ...entryBase(stepfile, entry, next - 1), problems: [`call ${i + 1} (${call.tool}) did not reach the tool: ${why}`] }));
        current = undefined;
        break;
      }
    }
    if (!current) break;
    toolbox.load(undefined);
    reply = await run.submit(entry.output);
    at = waitingAt(reply, at);
    unfinished(reply);
  }
  const differs = results.some((r) => r.problems.length > 0);
  if (stopped === undefined && next < c.steps.length) stopped = `${c.steps.length - next} later entr${c.steps.length - next === 1 ? "y was" : "ies were"} not run`;
  await run.abandon("server_closed");
  return { name: c.name, ...(c.line !== undefined ? { line: c.line } : {}), entries: results, ...(stopped !== undefined ? { stopped } : {}), ok: !differs && stopped === undefined };
}

/** The note for attempt `attempt` of `step` when a live run would not have made it. */
function pastRetries(stepfile: LoadedStepfile, step: string, attempt: number): string | undefined {
  const allowed = stepfile.compiled.steps.find((s) => s.def.id === step)?.attempts;
  if (allowed === undefined || attempt <= allowed) return undefined;
  return `attempt ${attempt} of step ${step}, which allows ${allowed} (retries: ${allowed - 1}); a live run would have failed after attempt ${allowed}`;
}

/** The agent step a reply leaves the run waiting at. */
function waitingAt(reply: Reply, previous: string | undefined): string | undefined {
  if (reply.kind === "step") return reply.step.step;
  if (reply.kind === "retry") return reply.step;
  if (reply.kind === "call") return previous;
  return undefined;
}

function judge(stepfile: LoadedStepfile, entry: CaseEntry, index: number, attempt: Attempt, toolbox: ReplayToolbox): EntryResult {
  const problems: string[] = [];
  if (attempt.mechanical) {
    const left = toolbox.unused();
    if (left.length > 0) problems.push(`the step made fewer calls than recorded; not made: ${left.map((k) => `${k.tool} with ${capText(JSON.stringify(k.arguments))}`).join(", ")}`);
    if (!jsonEqual(attempt.output, entry.output)) {
      problems.push(`the output template computes ${capText(JSON.stringify(attempt.output))}, but the entry records ${capText(JSON.stringify(entry.output))}`);
    }
  }
  // Compared as sets (format section 9 lists gate ids; the order and repeats say nothing).
  const expected = entry.expect === "pass" ? [] : [...new Set(entry.expect.fail)].sort();
  const got = [...new Set(attempt.failures.map((f) => f.gate))].sort();
  if (!jsonEqual(expected, got)) problems.push(`expected ${describeVerdict(entry.expect)}, got ${describeVerdict(got.length === 0 ? "pass" : { fail: got })}`);
  return { ...entryBase(stepfile, entry, index), failures: attempt.failures, problems, ...(attempt.mechanical ? { computed: attempt.output } : {}) };
}

function entryBase(stepfile: LoadedStepfile, entry: CaseEntry, index: number): Omit<EntryResult, "problems"> {
  const step = stepfile.compiled.steps.find((s) => s.def.id === entry.step);
  const skipped = (step?.gates ?? []).filter((g) => (SKIPPED_GATE_KINDS as readonly string[]).includes(g.kind)).map((g) => `${g.id} (${g.kind})`);
  return { index: index + 1, step: entry.step, ...(entry.line !== undefined ? { line: entry.line } : {}), expected: entry.expect, skipped };
}

export function describeVerdict(verdict: Expectation): string {
  return verdict === "pass" ? "pass" : `fail [${verdict.fail.join(", ")}]`;
}

function describeError(error: StepgateError): string {
  return `${error.name}: ${error.message}`;
}
