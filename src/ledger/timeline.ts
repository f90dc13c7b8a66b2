// A run read back from its ledger records, shaped the way a person follows
// it: steps, their attempts, each attempt's calls (with their retries),
// refused calls and gates, and how the run ended. Pure: `--show`, the HTML
// page and the MCP timeline resource all render this one model.

export interface TimelineRetry {
  attempt: number;
  status: number | null;
  waitMs: number;
}

export interface TimelineCall {
  /** When the call started and ended, ms since the epoch (its record is written at the end). */
  start: number;
  end: number;
  tool: string;
  operation: string;
  host: string;
  status: number | null;
  durationMs: number;
  caller: string;
  /** A mechanical step's call id. */
  call: string | null;
  credential: string | null;
  /** The error type of a call that got no usable answer (`ToolCallFailed`). */
  error: string | null;
  retries: TimelineRetry[];
}

export interface TimelineGate {
  at: number;
  id: string;
  /** `approve` for a person's approval; absent in ledgers written before gate kinds were recorded. */
  kind: string | null;
  pass: boolean;
}

export interface TimelineAttempt {
  n: number;
  start: number;
  end: number;
  calls: TimelineCall[];
  refused: string[];
  gates: TimelineGate[];
  /** Retries of a verifier or a call with no tool_call record after them. */
  retries: Array<TimelineRetry & { operation: string }>;
  submitted: boolean;
  passed: boolean;
}

export interface TimelineStep {
  id: string;
  start: number;
  end: number;
  mechanical: boolean;
  skipped: boolean;
  passed: boolean;
  attempts: TimelineAttempt[];
}

export type TimelineEnd =
  | { outcome: "finished"; at: number }
  | { outcome: "failed"; at: number; error: string; step: string | null }
  | { outcome: "abandoned"; at: number; reason: string }
  | { outcome: "open"; at: number };

export interface Timeline {
  run: string;
  stepfile: string;
  identity: string | null;
  inputsHash: string | null;
  start: number;
  end: TimelineEnd;
  totalMs: number;
  /** Retries during preflight (document fetches, MCP connects). */
  preflightRetries: Array<TimelineRetry & { operation: string }>;
  steps: TimelineStep[];
  checkpoints: number;
  records: number;
}

/** How a call ended, as both renderings show it: its status, `no answer`, or its error type (`ToolCallFailed (HTTP 200)`). */
export function callStatusText(c: TimelineCall): string {
  if (c.error !== null) return `${c.error}${c.status === null ? "" : ` (HTTP ${c.status})`}`;
  return c.status === null ? "no answer" : String(c.status);
}

/** A call that got no usable answer, or an error status. */
export function callFailed(c: TimelineCall): boolean {
  return c.error !== null || c.status === null || c.status >= 400;
}

type Rec = Record<string, unknown>;

/** Builds the timeline of one run; throws an Error naming the line when the text is not a ledger. */
export function buildTimeline(text: string): Timeline {
  const records: Rec[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    try {
      const r = JSON.parse(line) as unknown;
      if (!r || typeof r !== "object" || Array.isArray(r)) throw new Error("not an object");
      records.push(r as Rec);
    } catch {
      throw new Error(`line ${i + 1} is not a JSON ledger record`);
    }
  }
  const first = records[0];
  if (!first || first.type !== "run_started") throw new Error("the first record is not run_started: not a Stepgate ledger of one run");
  const time = (r: Rec) => Date.parse(String(r.at));
  const start = time(first);
  const timeline: Timeline = {
    run: String(first.run),
    stepfile: String(first.stepfile),
    identity: typeof first.identity === "string" ? first.identity : null,
    inputsHash: typeof first.inputs_hash === "string" ? first.inputs_hash : null,
    start,
    end: { outcome: "open", at: time(records.at(-1)!) },
    totalMs: 0,
    preflightRetries: [],
    steps: [],
    checkpoints: 0,
    records: records.length,
  };
  let step: TimelineStep | undefined;
  let pendingRetries: Array<TimelineRetry & { operation: string }> = [];
  const attempt = (n: number, at: number): TimelineAttempt => {
    const s = step!;
    let a = s.attempts.find((x) => x.n === n);
    if (!a) {
      a = { n, start: s.attempts.at(-1)?.end ?? at, end: at, calls: [], refused: [], gates: [], retries: [], submitted: false, passed: false };
      s.attempts.push(a);
    }
    return a;
  };
  // After an attempt's gates failed, the client's next calls belong to the next attempt.
  const current = (at: number) => {
    const last = step!.attempts.at(-1);
    return attempt(!last ? 1 : last.gates.length > 0 && !last.passed ? last.n + 1 : last.n, at);
  };
  for (const r of records.slice(1)) {
    const at = time(r);
    if (step) step.end = Math.max(step.end, at);
    switch (r.type) {
      case "step_started":
      case "step_skipped":
        step = { id: String(r.step), start: at, end: at, mechanical: false, skipped: r.type === "step_skipped", passed: false, attempts: [] };
        timeline.steps.push(step);
        if (!step.skipped) attempt(1, at);
        break;
      case "retry": {
        const retry = { operation: String(r.operation), attempt: Number(r.attempt), status: typeof r.status === "number" ? r.status : null, waitMs: Number(r.wait_ms) };
        if (r.step === null || !step) timeline.preflightRetries.push(retry);
        else pendingRetries.push(retry);
        break;
      }
      case "tool_call": {
        if (!step) break;
        const a = current(at);
        const duration = Number(r.duration_ms) || 0;
        const operation = String(r.operation);
        a.calls.push({
          start: at - duration,
          end: at,
          tool: String(r.tool),
          operation,
          host: String(r.host),
          status: typeof r.status === "number" ? r.status : null,
          durationMs: duration,
          caller: String(r.caller),
          call: typeof r.call === "string" ? r.call : null,
          credential: typeof r.credential === "string" ? r.credential : null,
          error: typeof r.error === "string" ? r.error : null,
          retries: pendingRetries.filter((x) => x.operation === operation),
        });
        pendingRetries = pendingRetries.filter((x) => x.operation !== operation);
        a.end = at;
        break;
      }
      case "tool_refused":
        if (step) current(at).refused.push(String(r.operation));
        break;
      case "computed":
        if (step) step.mechanical = true;
        break;
      case "submit": {
        if (!step) break;
        const a = attempt(Number(r.attempt), at);
        a.submitted = true;
        a.end = at;
        break;
      }
      case "gate": {
        if (!step) break;
        const a = attempt(Number(r.attempt), at);
        a.gates.push({ at, id: String(r.gate), kind: typeof r.kind === "string" ? r.kind : null, pass: r.verdict === "pass" });
        a.end = at;
        a.retries.push(...pendingRetries);
        pendingRetries = [];
        break;
      }
      case "step_passed":
        if (!step) break;
        step.passed = true;
        attempt(Number(r.attempt), at).passed = true;
        attempt(Number(r.attempt), at).end = at;
        break;
      case "checkpoint":
        timeline.checkpoints += 1;
        break;
      case "run_finished":
        timeline.end = { outcome: "finished", at };
        break;
      case "run_failed":
        timeline.end = { outcome: "failed", at, error: String(r.error), step: typeof r.step === "string" ? r.step : null };
        break;
      case "run_abandoned":
        timeline.end = { outcome: "abandoned", at, reason: String(r.reason) };
        break;
    }
  }
  // A step whose mechanical calls carry the `stepgate` caller ran without the client.
  for (const s of timeline.steps) if (s.attempts.some((a) => a.calls.some((c) => c.call !== null))) s.mechanical = true;
  timeline.totalMs = Math.max(0, timeline.end.at - start);
  return timeline;
}

/** Every failing gate of the run, in order. */
export function failingGates(t: Timeline): Array<{ step: string; attempt: number; gate: string }> {
  return t.steps.flatMap((s) => s.attempts.flatMap((a) => a.gates.filter((g) => !g.pass).map((g) => ({ step: s.id, attempt: a.n, gate: g.id }))));
}

/** "1.2 s", "350 ms", "2 min 5 s": durations as people say them. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}
