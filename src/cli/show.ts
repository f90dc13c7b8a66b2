// `stepgate --show <ledger.jsonl>...` prints each run as a person reads it;
// with `--html <file>` it writes them as one self-contained page instead.
// A `--record-cases` file (<id>-<run>.cases.yaml) stands for the ledger of
// the same name beside it, so a recorded run can be shown when --ledger-dir
// and --record-cases name the same folder.
import { lstatSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { buildTimeline, type Timeline } from "../ledger/timeline.js";
import { renderTimelineText } from "../ledger/timeline-text.js";
import { renderTimelinePage, type PageRun } from "../ledger/timeline-html.js";
import { describeVerdict, verdictPasses, verifyLedger } from "../ledger/verify.js";
import { fsProblem, writeWholeFile } from "../whole-file.js";
import type { Options } from "./options.js";

const CASES_SUFFIX = ".cases.yaml";

export async function showMode(options: Options, out: (text: string) => void, err: (line: string) => void, colour: boolean): Promise<number> {
  const runs: PageRun[] = [];
  for (const file of options.positionals) runs.push(await readRun(file));
  if (options.html !== undefined) {
    const page = renderTimelinePage(runs);
    const special = isSpecial(options.html);
    try {
      // A page is a file kept for later (mailed, archived with the ledgers): named only once whole,
      // so a full disk leaves the old page or none, never part of one. Anything but a regular
      // file or nothing is written through as before: a pipe or a device has no file to name,
      // and a link (--html /dev/stdout, a link to /proc/self/fd/1) would itself be replaced.
      if (special) await writeFile(options.html, page);
      else writeWholeFile(options.html, page);
    } catch (error) {
      err(`stepgate: cannot write ${options.html} (${fsProblem(error)})${special ? "" : "; nothing was written there"}`);
      return 1;
    }
    out(`${options.html}: ${runs.length} run${runs.length === 1 ? "" : "s"}${runs.every((r) => r.verdict.pass) ? "" : `, ${runs.filter((r) => !r.verdict.pass).length} that did not verify`}\n`);
  } else {
    for (const [i, run] of runs.entries()) {
      if (i > 0) out("\n");
      if (run.timeline) out(renderTimelineText(run.timeline, run.verdict.text, { colour }));
      else err(`stepgate: ${run.file}: ${run.problem}`);
    }
  }
  // The verdict is shown, not judged: --verify is the command whose exit code checks a ledger.
  return runs.every((r) => r.timeline) ? 0 : 1;
}

/** Whether `path` itself (a link not followed) is something other than a regular file or nothing at all. */
function isSpecial(path: string): boolean {
  try {
    return !lstatSync(path).isFile();
  } catch {
    return false;
  }
}

async function readRun(given: string): Promise<PageRun> {
  const file = given.endsWith(CASES_SUFFIX) ? `${given.slice(0, -CASES_SUFFIX.length)}.jsonl` : given;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const problem = file === given
      ? `cannot be read (${code})`
      : `its ledger ${file} cannot be read (${code}); serve with --ledger-dir and --record-cases naming the same folder to keep them together`;
    return { file: given, verdict: { status: "unreadable", text: problem, pass: false }, timeline: null, problem };
  }
  const verdict = verifyLedger(text);
  const summary = { status: verdict.status, text: describeVerdict(verdict), pass: verdictPasses(verdict, false) };
  // An empty file has no run to show; its verdict says why.
  if (verdict.status === "open" && verdict.records === 0) return { file, verdict: summary, timeline: null, problem: summary.text };
  let timeline: Timeline;
  try {
    timeline = buildTimeline(text);
  } catch (error) {
    return { file, verdict: summary, timeline: null, problem: (error as Error).message };
  }
  return { file, verdict: summary, timeline };
}
