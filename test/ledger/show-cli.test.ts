// `stepgate --show` on real ledgers written by real runs of the built CLI
// (test/ledger/real-runs.ts): what a person reads for each kind of run, and
// the HTML page's shape (the browser test renders it: npm run test:browser).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepgateBin } from "../support/paths.js";
import { makeRealRuns, RUN_KINDS, type RealRuns } from "./real-runs.js";

let runs: RealRuns;
beforeAll(async () => {
  runs = await makeRealRuns([], { recordCases: true });
}, 120_000);
afterAll(() => rmSync(runs.dir, { recursive: true, force: true }));

/** A duration as formatDuration writes it: a loaded machine can take seconds where a quiet one takes milliseconds. */
const TOOK = String.raw`(?:\d+ ms|\d+(?:\.\d)? s|\d+ min \d+ s)`;

function show(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [stepgateBin(), "--show", ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe("stepgate --show (text)", { timeout: 120_000 }, () => {
  it("shows an agent run: the stepfile, identity, inputs hash, each attempt, the failing gate by id, the end, the total and the verdict", () => {
    const { code, out } = show(runs.ledgers.agent);
    expect(code).toBe(0);
    const first = JSON.parse(readFileSync(runs.ledgers.agent, "utf8").split("\n")[0]!) as { identity: string; inputs_hash: string };
    expect(out).toContain(`Run ${runs.runIds.agent} of greet`);
    expect(out).toContain(`identity  ${first.identity}`);
    expect(out).toContain(`inputs    ${first.inputs_hash}`);
    expect(out).toContain("verify    intact, unsigned: the last record is not protected, 12 records");
    expect(out).toMatch(new RegExp(String.raw`✓ step hello \(agent\): passed on attempt 2, ${TOOK}`));
    expect(out).toContain("attempt 1: failed names-them");
    expect(out).toContain("gate names-them: FAIL");
    expect(out).toMatch(/✓ step sign \(agent\): passed/);
    expect(out).toMatch(/finished {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC/);
    expect(out).toMatch(new RegExp(String.raw`total {5}${TOOK}, 12 records`));
    // Not a TTY here: plain text, no colour codes.
    expect(out).not.toContain("\u001b[");
  });

  it("colours passes and failures on a terminal (a pty from script(1)), unless NO_COLOR is set", () => {
    const onTty = (env: Record<string, string>) =>
      spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(stepgateBin())} --show ${JSON.stringify(runs.ledgers.agent)}`, "/dev/null"], {
        encoding: "utf8",
        timeout: 60_000,
        env: { PATH: process.env.PATH ?? "", TERM: "xterm", ...env },
      }).stdout;
    const coloured = onTty({});
    expect(coloured).toContain("\u001b[31mFAIL\u001b[0m");
    expect(coloured).toContain("\u001b[32m");
    expect(onTty({ NO_COLOR: "1" })).not.toContain("\u001b[");
  });

  it("shows a mechanical step's call with operation, host, status, duration and that Stepgate made it", () => {
    const { out } = show(runs.ledgers.mechanical);
    expect(out).toMatch(/✓ step fetch \(mechanical\): passed/);
    expect(out).toMatch(new RegExp(String.raw`call listItems on 127\.0\.0\.1:\d+ \(tool catalogue\): 200, ${TOOK}, by Stepgate \(call shelf\)`));
    expect(out).toMatch(/✓ step report \(agent\): passed/);
  });

  it("shows a client's calls with their retries and waits, and an error status", () => {
    const { out } = show(runs.ledgers.retries);
    expect(out).toMatch(new RegExp(String.raw`call getBusyOnce on 127\.0\.0\.1:\d+ \(tool api\): 200, ${TOOK}, by the client, 1 retry \(attempt 1 got 503, waited \d+ ms\)`));
    expect(out).toMatch(new RegExp(String.raw`call postBusy on 127\.0\.0\.1:\d+ \(tool api\): 503, ${TOOK}, by the client\n`));
  });

  it("shows a failed run: every failing attempt and the error with its step", () => {
    const { out } = show(runs.ledgers.failed);
    expect(out).toMatch(/✗ step hello \(agent\): did not pass/);
    expect(out.match(/gate names-them: FAIL/g)).toHaveLength(2);
    expect(out).toMatch(/failed {4}GateFailed at step hello, /);
  });

  it("shows a person's approval apart from the gates", () => {
    const { out } = show(runs.ledgers.approval);
    expect(out).toContain("attempt 1: failed short");
    expect(out).toContain("approval person: approved");
    expect(out).not.toContain("gate person");
  });

  it("shows an abandoned run: the step it stopped in and why it ended", () => {
    const { out } = show(runs.ledgers.abandoned);
    expect(out).toMatch(/… step hello \(agent\): not finished/);
    expect(out).toContain("abandoned (the client's session closed)");
  });

  it("shows several ledgers one after another, and a --record-cases file by the ledger beside it", () => {
    const both = show(runs.ledgers.agent, runs.ledgers.failed);
    expect(both.out).toContain(`Run ${runs.runIds.agent} of greet`);
    expect(both.out).toContain(`Run ${runs.runIds.failed} of greet`);
    const cases = runs.ledgers.agent.replace(/\.jsonl$/, ".cases.yaml");
    expect(existsSync(cases)).toBe(true);
    const viaCases = show(cases);
    expect(viaCases.out).toContain(`Run ${runs.runIds.agent} of greet`);
    const lone = show(join(runs.dir, "elsewhere-run.cases.yaml"));
    expect(lone.code).toBe(1);
    expect(lone.err.trim().split("\n")).toHaveLength(1);
    expect(lone.err).toContain("serve with --ledger-dir and --record-cases naming the same folder");
  });

  it("tells a file that is not a ledger in one line, and still shows a tampered one with its verdict", () => {
    const bad = show(join(runs.dir, "shelves.stepfile.yaml"));
    expect(bad.code).toBe(1);
    expect(bad.err.trim().split("\n")).toHaveLength(1);
    const tampered = join(runs.dir, "tampered.jsonl");
    copyFileSync(runs.ledgers.agent, tampered);
    const lines = readFileSync(tampered, "utf8").split("\n");
    lines[2] = lines[2]!.replace('"attempt":1', '"attempt":7');
    writeFileSync(tampered, lines.join("\n"));
    expect(show(tampered).out).toContain("verify    tampered at record 3 (line 4)");
  });
});

describe("stepgate --show --html", { timeout: 120_000 }, () => {
  it("writes one self-contained page with a run list, a verdict per run and the failing gates marked", () => {
    const page = join(runs.dir, "runs.html");
    const r = show("--html", page, ...RUN_KINDS.map((k) => runs.ledgers[k]));
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${page}: 6 runs\n`);
    const html = readFileSync(page, "utf8");
    // Self-contained: no script, no external stylesheet, image or font.
    expect(html).not.toMatch(/<script|<link|src=|url\(|@import|https?:\/\//i);
    expect(html).toContain("data-run-list");
    for (const k of RUN_KINDS) expect(html).toContain(`data-run="${runs.runIds[k]}"`);
    expect(html).toContain('data-failing-gate="names-them"');
    expect(html).toContain('data-summary="pass"');
  });

  it("writes through a link (as --html /dev/stdout is one), never replacing the link itself", () => {
    const target = join(runs.dir, "target.html");
    const link = join(runs.dir, "link.html");
    symlinkSync(target, link);
    expect(show("--html", link, runs.ledgers.agent).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toContain(`data-run="${runs.runIds.agent}"`);
  });

  it("is refused without a page to write, and --html without --show is a usage error", () => {
    const r = spawnSync(process.execPath, [stepgateBin(), "--html", "x.html", runs.ledgers.agent], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--html is only for --show");
  });
});
