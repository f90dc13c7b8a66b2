// The text `stepgate --test` prints: one line per entry, the differences
// under it, and a last line to grep in CI.
import { quote } from "../quote.js";
import type { CasesReport, EntryResult } from "./run-cases.js";
import { describeVerdict } from "./run-cases.js";

export function formatReport(report: CasesReport): string {
  const lines: string[] = [`${report.stepfile}: ${report.file}`];
  for (const c of report.cases) {
    lines.push(`${c.ok ? "ok  " : "DIFF"} case ${quote(c.name)}${c.line !== undefined ? ` (line ${c.line})` : ""}`);
    for (const entry of c.entries) lines.push(...entryLines(entry));
    if (c.stopped) lines.push(`       stopped: ${c.stopped}`);
  }
  const differing = report.cases.filter((c) => !c.ok).length;
  lines.push(`${report.cases.length} case${report.cases.length === 1 ? "" : "s"}: ${report.cases.length - differing} agree, ${differing} differ`);
  return `${lines.join("\n")}\n`;
}

function entryLines(entry: EntryResult): string[] {
  const got = entry.failures === undefined ? "no verdict" : describeVerdict(entry.failures.length === 0 ? "pass" : { fail: entry.failures.map((f) => f.gate) });
  const where = entry.line !== undefined ? ` (line ${entry.line})` : "";
  const lines = [`  ${entry.problems.length === 0 ? "ok  " : "DIFF"} ${entry.index}. ${entry.step}: ${got}${where}`];
  for (const problem of entry.problems) lines.push(`       ${problem}`);
  // The diagnoses show why the engine decided as it did, which is what an author needs when a verdict differs.
  if (entry.problems.length > 0) for (const f of entry.failures ?? []) lines.push(`       ${f.gate}: ${f.diagnosis}`);
  if (entry.skipped.length > 0) lines.push(`       skipped offline: ${entry.skipped.join(", ")}`);
  if (entry.note) lines.push(`       note: ${entry.note}`);
  return lines;
}
