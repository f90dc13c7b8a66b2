// stepgate --test --mutate through the built CLI: a gate that counts ids
// without checking which gets a survivor on that field, and the subset +
// unique gates kill it; a time compared with `==` refuses the same instant
// written with +00:00 (a warning, exit 0); a mechanical step's gate that
// lets an empty list through is reported; accepted survivors, --min-score,
// the seed, and stepfiles written by others run without an error.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.js";
import { stepgate } from "./cli.js";

const SLOW = 120_000;
const FIXTURES = join(REPO_ROOT, "test/fixtures/mutate");
const fixture = (name: string) => join(FIXTURES, name);

interface Report {
  mutants: number;
  killed: number;
  survivors: number;
  score: number;
  files: Array<{
    stepfile: string;
    mutants: number;
    killed: number;
    score: number;
    survivors: Array<{ case: string; step: string; path: string; mutation: string; change: string; output: unknown }>;
    accepted: Array<{ path: string; mutation: string; reason: string }>;
    refusedEquivalents: Array<{ case: string; step: string; gate: string; path: string; change: string; diagnosis: string }>;
    steps: Array<{ step: string; mutants: number; killed: number; gates: Record<string, number> }>;
    unusedAccepted: Array<{ step: string; mutation: string }>;
  }>;
}

async function mutateJson(...args: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const result = await stepgate("--test", "--mutate", "--json", ...args);
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

describe("stepgate --test --mutate", () => {
  it("finds that a gate counting the listed ids never checks which ids they are", async () => {
    const { code, report } = await mutateJson(fixture("paid-invoices.stepfile.yaml"));
    expect(code).toBe(0);
    const [file] = report.files;
    const swapped = file!.survivors.filter((s) => s.mutation === "replace-item");
    expect(swapped.length).toBeGreaterThan(0);
    expect(swapped[0]).toMatchObject({ case: "two of three invoices are paid", step: "paid", path: expect.stringMatching(/^paid_ids\[\d\]$/) });
    // The unpaid invoice's id, taken from the evidence, is what got through.
    expect(swapped[0]!.change).toContain('"in_1002"');
    expect(JSON.stringify(swapped[0]!.output)).toContain("in_1002");
    expect(file!.score).toBeLessThan(1);
  }, SLOW);

  it("kills every mutant of that field once a subset and a unique gate check which ids", async () => {
    const { code, report } = await mutateJson(fixture("paid-invoices-checked.stepfile.yaml"));
    expect(code).toBe(0);
    const [file] = report.files;
    expect(file!.mutants).toBeGreaterThan(0);
    expect(file!.survivors.filter((s) => s.path.startsWith("paid_ids"))).toEqual([]);
    expect(file!.steps[0]!.gates["only-paid"]).toBeGreaterThan(0);
    expect(file!.steps[0]!.gates["each-once"]).toBeGreaterThan(0);
  }, SLOW);

  it("reports a gate comparing a time string with == as refusing the same instant, as a warning", async () => {
    const text = await stepgate("--test", "--mutate", fixture("quake-time.stepfile.yaml"));
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("WARNING  time-as-returned refuses a likely-equivalent output");
    const { report } = await mutateJson(fixture("quake-time.stepfile.yaml"));
    const refused = report.files[0]!.refusedEquivalents;
    expect(refused).toContainEqual(
      expect.objectContaining({ case: "the latest event", step: "report", gate: "time-as-returned", path: "time", change: expect.stringContaining('"2026-11-25T07:43:31.420+00:00"') }),
    );
    expect(refused[0]!.diagnosis).toContain('expected "2026-11-25T07:43:31.420Z"');
  }, SLOW);

  it("varies a mechanical step's recorded result: a gate that lets an empty list go on is reported", async () => {
    const { report } = await mutateJson(fixture("invoice-count.stepfile.yaml"));
    const [file] = report.files;
    expect(file!.survivors).toContainEqual(expect.objectContaining({ step: "count", path: "calls[0].result.invoices", mutation: "empty-list", output: { count: 0 } }));
    // Another status stops the run: the step's call does not accept it.
    expect(file!.steps[0]!.gates["(run stopped)"]).toBeGreaterThan(0);
  }, SLOW);

  it("lists an accepted survivor apart, with its reason, and notes an acceptance that matches nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-mutate-"));
    copyFileSync(fixture("paid-invoices.stepfile.yaml"), join(dir, "paid-invoices.stepfile.yaml"));
    copyFileSync(fixture("paid-invoices.cases.yaml"), join(dir, "paid-invoices.cases.yaml"));
    writeFileSync(
      join(dir, "paid-invoices.mutants.yaml"),
      ["accept:", "  - step: paid", "    mutation: trailing-space", "    reason: ids are trimmed by the billing system", "  - step: paid", "    mutation: sign-flip", "    reason: stale", ""].join("\n"),
    );
    const { report } = await mutateJson(join(dir, "paid-invoices.stepfile.yaml"));
    const [file] = report.files;
    expect(file!.accepted.length).toBeGreaterThan(0);
    expect(file!.accepted.every((a) => a.mutation === "trailing-space" && a.reason === "ids are trimmed by the billing system")).toBe(true);
    expect(file!.survivors.some((s) => s.mutation === "trailing-space")).toBe(false);
    expect(file!.unusedAccepted).toEqual([expect.objectContaining({ step: "paid", mutation: "sign-flip" })]);
    const text = await stepgate("--test", "--mutate", join(dir, "paid-invoices.stepfile.yaml"));
    expect(text.stdout).toMatch(/accepted case "two of three invoices are paid" entry 1 \(line 4\), step paid, paid_ids\[\d\]: trailing-space, .*: ids are trimmed by the billing system/);
    expect(text.stdout).toContain("the accepted survivor sign-flip in step paid (line 5) matches no survivor");
  }, SLOW);

  it("refuses an accepted-mutants file naming an unknown mutation or with no reason, with the line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-mutate-"));
    copyFileSync(fixture("paid-invoices.stepfile.yaml"), join(dir, "paid-invoices.stepfile.yaml"));
    copyFileSync(fixture("paid-invoices.cases.yaml"), join(dir, "paid-invoices.cases.yaml"));
    writeFileSync(join(dir, "paid-invoices.mutants.yaml"), "accept:\n  - step: paid\n    mutation: trailing-tab\n    reason: x\n");
    const unknown = await stepgate("--test", "--mutate", join(dir, "paid-invoices.stepfile.yaml"));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`${join(dir, "paid-invoices.mutants.yaml")}:3:15 accept[0].mutation: no mutation is named trailing-tab`);
    writeFileSync(join(dir, "paid-invoices.mutants.yaml"), "accept:\n  - step: paid\n    mutation: trailing-space\n");
    const noReason = await stepgate("--test", "--mutate", join(dir, "paid-invoices.stepfile.yaml"));
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toContain("accept[0]: missing required field reason");
  }, SLOW);

  it("fails the exit code below --min-score, and plays the same mutants for the same seed", async () => {
    const below = await stepgate("--test", "--mutate", "--min-score", "0.9", fixture("paid-invoices.stepfile.yaml"));
    expect(below.code).toBe(1);
    expect(below.stderr).toMatch(/paid-invoices scores 0\.\d\d, below --min-score 0\.9/);
    const above = await stepgate("--test", "--mutate", "--min-score", "0.9", fixture("paid-invoices-checked.stepfile.yaml"));
    expect(above.code).toBe(0);
    const first = await stepgate("--test", "--mutate", "--json", "--mutants", "3", "--seed", "7", fixture("paid-invoices.stepfile.yaml"));
    const again = await stepgate("--test", "--mutate", "--json", "--mutants", "3", "--seed", "7", fixture("paid-invoices.stepfile.yaml"));
    expect(again.stdout).toBe(first.stdout);
    expect((JSON.parse(first.stdout) as Report).mutants).toBe(3);
  }, SLOW);

  it("exits 1 naming a case that does not replay as its file says, whose mutants it does not play", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-mutate-"));
    const wrong = join(dir, "wrong.cases.yaml");
    writeFileSync(wrong, readFileSync(fixture("paid-invoices.cases.yaml"), "utf8").replace("[in_1001, in_1003]", "[in_1001]"));
    const result = await stepgate("--test", "--mutate", fixture("paid-invoices.stepfile.yaml"), wrong);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('skipped  case "two of three invoices are paid": its verdicts differ from the file');
    expect(result.stderr).toContain("paid-invoices: 1 case does not replay as the file says, so it was not mutated (see stepgate --test)");
  }, SLOW);

  it("refuses the mutation options without --mutate, and a score outside 0..1", async () => {
    const alone = await stepgate("--test", "--mutants", "3", "release-notes");
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--mutants is only for --test --mutate");
    const score = await stepgate("--test", "--mutate", "--min-score", "1.5", "release-notes");
    expect(score.code).toBe(2);
    expect(score.stderr).toContain("--min-score \"1.5\": expected a number from 0 to 1");
    const orphan = await stepgate("--test", "--mutate", fixture("paid-invoices.cases.yaml"));
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toContain("a cases file follows the stepfile it tests");
  }, SLOW);

  it("runs over stepfiles written by others without an error, each reporting its mutants", async () => {
    const corpus = join(REPO_ROOT, "test/compat/corpus");
    const args = readdirSync(corpus).flatMap((dir) => {
      const names = readdirSync(join(corpus, dir));
      const stepfile = names.find((n) => /\.stepfile\.(ya?ml|json)$/.test(n))!;
      const cases = names.find((n) => n.endsWith(".cases.yaml"))!;
      return [join(corpus, dir, stepfile), join(corpus, dir, cases)];
    });
    const shared = resolve(REPO_ROOT, "..", "shared", "conformance");
    // The public conformance suite, read in place (never copied), when it is here.
    const conformance = existsSync(shared) ? readdirSync(shared).filter((n) => n.endsWith(".case.yaml")).map((n) => join(shared, n)) : [];
    const { code, report, stderr } = await mutateJson(...args, ...conformance);
    expect(stderr).not.toMatch(/Error|Invalid/);
    expect(code).toBe(0);
    expect(report.files).toHaveLength(args.length / 2 + conformance.length);
    // Every corpus file has an agent step or a recorded call to vary.
    expect(report.files.slice(0, args.length / 2).every((f) => f.mutants > 0)).toBe(true);
  }, SLOW);
});
