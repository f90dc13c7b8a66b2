// The text `stepgate --test --mutate` prints: per file its score, then per
// step the mutants its gates killed and which gate killed how many, then
// every survivor with the output that got through, the refused
// equivalents with the gate's diagnosis, and a last line to grep in CI.
import { capText } from "../../quote.js";
import type { MutationReport, MutantRef } from "./mutate-cases.js";

export function formatMutationReport(report: MutationReport): string {
  const lines = [`${report.stepfile}: ${report.cases}`];
  for (const s of report.steps) {
    const gates = Object.entries(s.gates).map(([gate, n]) => `${gate} ${n}`);
    lines.push(`  step ${s.step}: ${s.killed} of ${s.mutants} killed${gates.length > 0 ? ` (${gates.join(", ")})` : ""}`);
  }
  for (const s of report.survivors) {
    lines.push(`SURVIVES ${where(s)}`);
    lines.push(`       output that passed every gate: ${capText(JSON.stringify(s.output) ?? "null")}`);
    if (s.unchecked.length > 0) lines.push(`       not checked offline: ${s.unchecked.join(", ")}`);
  }
  for (const e of report.refusedEquivalents) {
    lines.push(`WARNING  ${e.gate} refuses a likely-equivalent output: ${where(e)}`);
    lines.push(`       ${e.gate}: ${capText(e.diagnosis)}`);
  }
  for (const a of report.accepted) lines.push(`accepted ${where(a)}: ${a.reason}`);
  for (const s of report.skipped) lines.push(`skipped  case "${s.case}": ${s.reason}`);
  for (const u of report.unusedAccepted) lines.push(`note     the accepted survivor ${u.mutation} in step ${u.step}${u.line !== undefined ? ` (line ${u.line})` : ""} matches no survivor: remove it, or check it still applies`);
  const extra = [
    report.accepted.length > 0 ? `${report.accepted.length} accepted` : "",
    `${report.refusedEquivalents.length} refused equivalent${report.refusedEquivalents.length === 1 ? "" : "s"} of ${report.equivalents}`,
    report.inconclusive > 0 ? `${report.inconclusive} not judged offline` : "",
  ].filter(Boolean);
  lines.push(`${report.mutants} mutant${report.mutants === 1 ? "" : "s"}: ${report.killed} killed, ${report.survivors.length} survive${report.survivors.length === 1 ? "s" : ""}; ${extra.join("; ")}; score ${report.score.toFixed(2)}`);
  return `${lines.join("\n")}\n`;
}

function where(m: MutantRef): string {
  return `case "${m.case}" entry ${m.entry}${m.line !== undefined ? ` (line ${m.line})` : ""}, step ${m.step}, ${m.path}: ${m.mutation}, ${m.change}`;
}
