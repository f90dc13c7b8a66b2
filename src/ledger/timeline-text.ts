// A run's timeline as plain text for a terminal (`stepgate --show`) or an MCP
// resource. Colour is a choice of the caller (on a TTY only), written as raw
// ANSI codes: five fixed codes do not justify a dependency, and node:util's
// styleText looks at process.stdout itself in newer Node versions, which
// would make this renderer depend on where it runs.
import { callFailed, callStatusText, formatDuration, type Timeline, type TimelineAttempt, type TimelineCall, type TimelineRetry } from "./timeline.js";

export interface TextStyle {
  colour: boolean;
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;

export function renderTimelineText(t: Timeline, verdict: string, style: TextStyle = { colour: false }): string {
  const paint = (code: keyof typeof CODES, text: string) => (style.colour ? `\u001b[${CODES[code]}m${text}\u001b[0m` : text);
  const ok = (pass: boolean, text: string) => paint(pass ? "green" : "red", text);
  const lines: string[] = [];
  lines.push(paint("bold", `Run ${t.run} of ${t.stepfile}`));
  lines.push(`  identity  ${t.identity ?? "(not recorded)"}`);
  lines.push(`  inputs    ${t.inputsHash ?? "(not recorded)"}`);
  lines.push(`  started   ${clock(t.start)}`);
  lines.push(`  verify    ${verdict}`);
  for (const r of t.preflightRetries) lines.push(`  preflight retry of ${r.operation}: ${retryText(r)}`);
  lines.push("");
  for (const s of t.steps) {
    if (s.skipped) {
      lines.push(`  ${paint("dim", `- step ${s.id}: skipped (its when was false)`)}`);
      continue;
    }
    const kind = s.mechanical ? "mechanical" : "agent";
    const tries = s.attempts.length;
    const failed = s.attempts.some((a) => a.gates.some((g) => !g.pass));
    const state = s.passed ? ok(true, tries > 1 ? `passed on attempt ${tries}` : "passed") : failed ? ok(false, "did not pass") : paint("yellow", "not finished");
    const mark = s.passed ? ok(true, "✓") : failed ? ok(false, "✗") : paint("yellow", "…");
    lines.push(`  ${mark} step ${paint("bold", s.id)} (${kind}): ${state}, ${formatDuration(s.end - s.start)}`);
    const showAttempts = tries > 1;
    for (const a of s.attempts) {
      const indent = showAttempts ? "      " : "    ";
      if (showAttempts) lines.push(`    attempt ${a.n}: ${attemptState(a, ok)}`);
      for (const c of a.calls) lines.push(`${indent}${callText(c, paint)}`);
      for (const op of a.refused) lines.push(`${indent}${paint("yellow", `refused ${op}: the step does not list it`)}`);
      for (const r of a.retries) lines.push(`${indent}retry of ${r.operation}: ${retryText(r)}`);
      for (const g of a.gates) {
        const approval = g.kind === "approve";
        const word = approval ? (g.pass ? "approved" : "DECLINED") : g.pass ? "pass" : "FAIL";
        lines.push(`${indent}${approval ? "approval" : "gate"} ${g.id}: ${ok(g.pass, word)}`);
      }
    }
  }
  lines.push("");
  lines.push(`  ${endText(t, paint)}`);
  lines.push(`  total     ${formatDuration(t.totalMs)}, ${t.records} records${t.checkpoints ? `, ${t.checkpoints} checkpoint${t.checkpoints === 1 ? "" : "s"}` : ""}`);
  return `${lines.join("\n")}\n`;
}

type Paint = (code: keyof typeof CODES, text: string) => string;

function attemptState(a: TimelineAttempt, ok: (pass: boolean, text: string) => string): string {
  if (a.passed) return ok(true, "passed");
  const failing = a.gates.filter((g) => !g.pass).map((g) => g.id);
  if (failing.length > 0) return ok(false, `failed ${failing.join(", ")}`);
  return a.submitted ? "submitted" : "no submission";
}

function callText(c: TimelineCall, paint: Paint): string {
  const status = callFailed(c) ? paint("red", callStatusText(c)) : callStatusText(c);
  const who = c.caller === "stepgate" ? `by Stepgate${c.call ? ` (call ${c.call})` : ""}` : "by the client";
  const retries = c.retries.length ? `, ${c.retries.length} ${c.retries.length === 1 ? "retry" : "retries"} (${c.retries.map(retryText).join("; ")})` : "";
  return `call ${c.operation} on ${c.host} (tool ${c.tool}): ${status}, ${formatDuration(c.durationMs)}, ${who}${retries}`;
}

function retryText(r: TimelineRetry): string {
  return `attempt ${r.attempt} got ${r.status ?? "no answer"}, waited ${formatDuration(r.waitMs)}`;
}

function endText(t: Timeline, paint: Paint): string {
  const end = t.end;
  switch (end.outcome) {
    case "finished":
      return paint("green", `finished  ${clock(end.at)}`);
    case "failed":
      return paint("red", `failed    ${end.error}${end.step ? ` at step ${end.step}` : " before any step"}, ${clock(end.at)}`);
    case "abandoned":
      return paint("yellow", `abandoned ${abandonReason(end.reason)}, ${clock(end.at)}`);
    case "open":
      return paint("yellow", `open      no closing record: the run was in progress or the file was cut (last record ${clock(end.at)})`);
  }
}

function abandonReason(reason: string): string {
  if (reason === "idle") return "(the client stopped calling)";
  if (reason === "session_closed") return "(the client's session closed)";
  if (reason === "server_closed") return "(the server shut down)";
  return `(${reason})`;
}

/** An RFC 3339 time as people read it, still in UTC so every reader sees the same. */
export function clock(ms: number): string {
  return Number.isNaN(ms) ? "(no time)" : new Date(ms).toISOString().replace("T", " ").replace("Z", " UTC");
}
