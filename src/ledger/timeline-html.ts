// Runs as one self-contained HTML page (`stepgate --show --html`): inline
// styles, no scripts and no external assets, so it opens from file:// and
// can be mailed or archived with the ledgers. Each run gets its verify
// verdict first, then a timeline whose bars are to scale (position and width
// are shares of the run's total time), failing gates in red, and the steps'
// details. Several runs get a run list at the top.
import { callFailed, callStatusText, failingGates, formatDuration, type Timeline, type TimelineStep } from "./timeline.js";
import { clock } from "./timeline-text.js";

export interface PageRun {
  file: string;
  /** The verify verdict's status (`signed`, `unsigned`, `open`, `tampered`, ...) and its sentence. */
  verdict: { status: string; text: string; pass: boolean };
  timeline: Timeline | null;
  /** Why the file could not be read as a run, when timeline is null. */
  problem?: string;
}

const STYLE = `
:root{--fail:#c62828;--fail-bg:#fdecea;--pass:#2e7d32;--pass-bg:#e8f5e9;--warn:#a15c00;--warn-bg:#fff4e0;--ink:#1d232a;--muted:#5b6670;--line:#d7dde3;--call:#1565c0;--bar:#90a4ae}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);margin:0;padding:24px 32px;background:#fafbfc}
h1{font-size:20px;margin:0 0 12px}h2{font-size:17px;margin:0 0 6px}code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}
.summary{padding:10px 14px;border-radius:6px;margin:0 0 18px;font-weight:600}
.pass{color:var(--pass)}.fail{color:var(--fail)}.warn{color:var(--warn)}
.v-pass{background:var(--pass-bg);color:var(--pass);border:1px solid #a5d6a7}.v-fail{background:var(--fail-bg);color:var(--fail);border:1px solid #ef9a9a}.v-warn{background:var(--warn-bg);color:var(--warn);border:1px solid #ffcc80}
table.runs{border-collapse:collapse;margin:0 0 24px;background:#fff}table.runs th,table.runs td{border:1px solid var(--line);padding:4px 10px;text-align:left}
article.run{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px 20px;margin:0 0 24px}
.verdict{padding:6px 10px;border-radius:5px;margin:0 0 12px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0 0 14px}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.axis,.row{display:grid;grid-template-columns:190px 1fr;align-items:center}
.axis .ticks{position:relative;height:18px;border-bottom:1px solid var(--line);color:var(--muted);font-size:11px}
.axis .ticks span{position:absolute;transform:translateX(-50%);white-space:nowrap}.axis .ticks span:first-child{transform:none}.axis .ticks span:last-child{transform:translateX(-100%)}
.row{border-bottom:1px dashed #eef1f4;min-height:34px}
.row .label{padding:4px 8px 4px 0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.row .label small{color:var(--muted)}
.track{position:relative;height:30px}
.bar{position:absolute;top:5px;height:10px;border-radius:3px;background:var(--bar);min-width:3px}
.row.passed .bar{background:#81c784}.row.failed .bar{background:#e57373}.row.skipped .bar{background:repeating-linear-gradient(45deg,#ccc 0 4px,#eee 4px 8px)}
.call{position:absolute;top:17px;height:8px;border-radius:2px;background:var(--call);min-width:3px}.call.by-client{background:#7e57c2}
.call.error{background:var(--fail)}
.gate{position:absolute;top:2px;width:3px;height:26px;background:var(--pass);border-radius:1px}.gate.failing{background:var(--fail);width:5px}
.ending{margin:10px 0 0;font-weight:600}
details{margin:12px 0 0}summary{cursor:pointer;color:var(--muted)}
.steps{list-style:none;padding:0;margin:8px 0 0}.steps>li{margin:0 0 8px}
.steps ul{margin:2px 0 0 18px;padding:0}.steps li li{list-style:disc}
.gate-fail{background:var(--fail-bg);color:var(--fail);font-weight:600;padding:0 4px;border-radius:3px}
.legend{color:var(--muted);font-size:12px;margin:8px 0 0}.legend i{display:inline-block;width:12px;height:8px;margin:0 4px 0 10px;border-radius:2px;vertical-align:middle}
`;

export function renderTimelinePage(runs: PageRun[]): string {
  const failing = runs.filter((r) => !r.verdict.pass).length;
  const counts = STATUS_WORDS.map(([status, word]) => [runs.filter((r) => r.verdict.status === status).length, word] as const).filter(([n]) => n > 0);
  const tally = esc(counts.map(([n, word]) => `${n} ${word}`).join(", "));
  const allSigned = runs.every((r) => r.verdict.status === "signed");
  const summary = failing === 0
    ? `<p class="summary ${allSigned ? "v-pass" : "v-warn"}" data-summary="pass">${runs.length === 1 ? "The ledger verifies" : `All ${runs.length} ledgers verify`}: ${tally}</p>`
    : `<p class="summary v-fail" data-summary="fail">${failing} of ${runs.length} ledger${runs.length === 1 ? "" : "s"} did not verify: ${tally}</p>`;
  const list = runs.length > 1 ? runList(runs) : "";
  const title = runs.length === 1 && runs[0]!.timeline ? `${runs[0]!.timeline.stepfile} run ${runs[0]!.timeline.run}` : `${runs.length} runs`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Stepgate: ${esc(title)}</title><style>${STYLE}</style></head>
<body><h1>Stepgate ledger${runs.length === 1 ? "" : "s"}</h1>
${summary}
${list}
${runs.map((r, i) => runArticle(r, i)).join("\n")}
</body></html>
`;
}

/** How the page's summary counts each verify status. */
const STATUS_WORDS = [
  ["signed", "intact and signed"],
  ["unsigned", "intact but unsigned (the last record of each is not protected)"],
  ["open", "open (no closing record)"],
  ["tampered", "tampered"],
  ["signature", "with an invalid signature"],
  ["wrong-key", "signed by another key"],
  ["unreadable", "unreadable"],
] as const;

function runList(runs: PageRun[]): string {
  const rows = runs.map((r, i) => {
    const t = r.timeline;
    return `<tr><td><a href="#${anchor(i)}">${esc(t?.stepfile ?? r.file)}</a></td><td class="mono">${esc(t?.run ?? "")}</td><td>${esc(t ? outcomeWord(t) : "unreadable")}</td><td>${t ? esc(formatDuration(t.totalMs)) : ""}</td><td class="${!r.verdict.pass ? "fail" : r.verdict.status === "signed" ? "pass" : "warn"}">${esc(r.verdict.status)}</td></tr>`;
  });
  return `<table class="runs" data-run-list><thead><tr><th>Stepfile</th><th>Run</th><th>Ended</th><th>Took</th><th>Verify</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function anchor(i: number): string {
  return `run-${i + 1}`;
}

function verdictClass(r: PageRun): string {
  if (!r.verdict.pass) return "v-fail";
  return r.verdict.status === "signed" ? "v-pass" : "v-warn";
}

function runArticle(r: PageRun, i: number): string {
  const verdict = `<p class="verdict ${verdictClass(r)}" data-verdict="${esc(r.verdict.status)}">Verify: ${esc(r.verdict.text)}</p>`;
  const t = r.timeline;
  if (!t) return `<article class="run" id="${anchor(i)}">${verdict}<h2>${esc(r.file)}</h2><p class="fail">${esc(r.problem ?? "not a ledger")}</p></article>`;
  const failing = failingGates(t);
  const facts = [
    ["File", `<code>${esc(r.file)}</code>`],
    ["Stepfile", `${esc(t.stepfile)} <code>${esc(t.identity ?? "")}</code>`],
    ["Inputs", `<code>${esc(t.inputsHash ?? "")}</code>`],
    ["Started", esc(clock(t.start))],
    ["Took", esc(formatDuration(t.totalMs))],
    ["Failing gates", failing.length ? failing.map((g) => `<span class="gate-fail">${esc(g.gate)}</span> <small>(${esc(g.step)}, attempt ${g.attempt})</small>`).join(", ") : "none"],
  ];
  return `<article class="run" id="${anchor(i)}" data-run="${esc(t.run)}" data-outcome="${t.end.outcome}">
${verdict}
<h2>${esc(t.stepfile)} <small class="mono">${esc(t.run)}</small></h2>
<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>
${track(t)}
<p class="ending ${t.end.outcome === "finished" ? "pass" : "fail"}" data-ending>${esc(endingText(t))}</p>
<details open><summary>Steps, attempts, calls and gates</summary><ol class="steps">${t.steps.map(stepDetails).join("")}</ol></details>
</article>`;
}

function track(t: Timeline): string {
  const total = Math.max(t.totalMs, 1);
  const pos = (ms: number) => Math.min(100, Math.max(0, ((ms - t.start) / total) * 100));
  const span = (from: number, to: number) => `left:${pos(from).toFixed(3)}%;width:${Math.max(0, pos(to) - pos(from)).toFixed(3)}%`;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => `<span style="left:${f * 100}%">${esc(formatDuration(f * t.totalMs))}</span>`).join("");
  const rows = t.steps.map((s) => {
    const state = s.skipped ? "skipped" : s.passed ? "passed" : "failed";
    const calls = s.attempts.flatMap((a) => a.calls).map((c) => {
      const tip = `${c.operation} on ${c.host}: ${callStatusText(c)}, ${formatDuration(c.durationMs)}, by ${c.caller}${c.retries.length ? `, ${c.retries.length} retries` : ""}`;
      return `<div class="call by-${esc(c.caller)}${callFailed(c) ? " error" : ""}" style="${span(c.start, c.end)}" title="${esc(tip)}"></div>`;
    });
    const gates = s.attempts.flatMap((a) => a.gates.map((g) => `<div class="gate${g.pass ? "" : " failing"}" data-gate="${esc(g.id)}" data-verdict="${g.pass ? "pass" : "fail"}" style="left:${pos(g.at).toFixed(3)}%" title="${esc(`${g.kind === "approve" ? "approval" : "gate"} ${g.id}, attempt ${a.n}: ${g.pass ? "pass" : "fail"}`)}"></div>`));
    const detail = s.skipped ? "skipped" : `${s.mechanical ? "mechanical" : "agent"} · ${s.attempts.length} attempt${s.attempts.length === 1 ? "" : "s"} · ${formatDuration(s.end - s.start)}`;
    return `<div class="row ${state}" data-step="${esc(s.id)}"><div class="label"><strong>${esc(s.id)}</strong><br><small>${esc(detail)}</small></div><div class="track"><div class="bar" style="${span(s.start, s.end)}"></div>${calls.join("")}${gates.join("")}</div></div>`;
  });
  const legend = `<p class="legend">to scale:<i style="background:#81c784"></i>step<i style="background:var(--call)"></i>call by Stepgate<i style="background:#7e57c2"></i>call by the client<i style="background:var(--pass)"></i>gate passed<i style="background:var(--fail)"></i>gate failed</p>`;
  return `<div class="timeline" data-total-ms="${t.totalMs}"><div class="axis"><div></div><div class="ticks">${ticks}</div></div>${rows.join("")}${legend}</div>`;
}

function stepDetails(s: TimelineStep): string {
  if (s.skipped) return `<li><strong>${esc(s.id)}</strong>: skipped</li>`;
  const attempts = s.attempts.map((a) => {
    const items = [
      ...a.calls.map((c) => `<li>call <code>${esc(c.operation)}</code> on ${esc(c.host)} (tool ${esc(c.tool)}): ${esc(callStatusText(c))}, ${esc(formatDuration(c.durationMs))}, by ${c.caller === "stepgate" ? `Stepgate${c.call ? ` (call ${esc(c.call)})` : ""}` : "the client"}${c.retries.length ? `, ${c.retries.length} ${c.retries.length === 1 ? "retry" : "retries"} (${c.retries.map((x) => `${x.status ?? "no answer"}, waited ${esc(formatDuration(x.waitMs))}`).join("; ")})` : ""}</li>`),
      ...a.refused.map((op) => `<li class="fail">refused <code>${esc(op)}</code>: not listed for the step</li>`),
      ...a.gates.map((g) => {
        const word = g.kind === "approve" ? (g.pass ? "approved" : "declined") : g.pass ? "pass" : "fail";
        const name = `${g.kind === "approve" ? "approval" : "gate"} <code>${esc(g.id)}</code>`;
        return g.pass ? `<li>${name}: <span class="pass">${word}</span></li>` : `<li><span class="gate-fail" data-failing-gate="${esc(g.id)}">${name}: ${word}</span></li>`;
      }),
    ];
    return `<li>attempt ${a.n}: ${a.passed ? '<span class="pass">passed</span>' : '<span class="fail">did not pass</span>'}<ul>${items.join("")}</ul></li>`;
  });
  return `<li><strong>${esc(s.id)}</strong> (${s.mechanical ? "mechanical" : "agent"}): ${s.passed ? '<span class="pass">passed</span>' : '<span class="fail">did not pass</span>'}<ul>${attempts.join("")}</ul></li>`;
}

function outcomeWord(t: Timeline): string {
  return t.end.outcome === "open" ? "open (no closing record)" : t.end.outcome;
}

function endingText(t: Timeline): string {
  const e = t.end;
  if (e.outcome === "finished") return `Finished after ${formatDuration(t.totalMs)}`;
  if (e.outcome === "failed") return `Failed with ${e.error}${e.step ? ` at step ${e.step}` : " before any step"} after ${formatDuration(t.totalMs)}`;
  if (e.outcome === "abandoned") return `Abandoned (${e.reason}) after ${formatDuration(t.totalMs)}`;
  return `Open: no closing record after ${formatDuration(t.totalMs)} (the run was in progress or the file was cut)`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
