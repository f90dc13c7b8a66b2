// The catalog check: every entry under awesome-stepfiles/ loads, replays its
// cases through the built CLI, keeps the README contract of
// awesome-stepfiles/CONTRIBUTING.md (whose sample command works as written
// and shows its real output), has a failing verdict for every agent step and
// one whole run, declares credentials and hosts narrowly; the index is up to
// date; and the catalog as a whole meets the counts of issue 10.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog.js";
import { catalogCounts, entryFacts, type CatalogCounts } from "../../src/cli/catalog-facts.js";
import type { StepfileDocument } from "../../src/format/types.js";
import { gateKind } from "../../src/format/types.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { indexedEntries, indexText } from "../../scripts/catalog/index-text.js";
import { portableOutput, readmeSectionProblems, readTryIt } from "../../scripts/catalog/readme.js";
import { REPO_ROOT } from "../support/paths.js";
import { stepgate } from "../offline/cli.js";

const root = join(REPO_ROOT, "awesome-stepfiles");
// Spawning the CLI and compiling every entry takes a while on a loaded machine.
const SLOW = 180_000;
const entries = catalogEntries(root);

interface CaseEntry {
  step: string;
  calls?: unknown[];
  expect: "pass" | { fail: string[] };
}
interface CasesFile {
  cases: Array<{ name: string; steps: CaseEntry[] }>;
}

type Loaded = { doc: StepfileDocument; readme: string; cases: CasesFile; file: string };
/** Each entry read once for all its tests (none of them changes what it reads). */
const loaded = new Map<string, Promise<Loaded>>();
function load(name: string): Promise<Loaded> {
  let entry = loaded.get(name);
  if (entry === undefined) loaded.set(name, (entry = read(name)));
  return entry;
}

async function read(name: string): Promise<Loaded> {
  const entry = entries.find((e) => e.name === name)!;
  const { doc } = await loadStepfileFile(entry.file, entry.name);
  const dir = dirname(entry.file);
  return {
    doc,
    file: entry.file,
    readme: readFileSync(join(dir, "README.md"), "utf8"),
    cases: parse(readFileSync(join(dir, `${doc.id}.cases.yaml`), "utf8")) as CasesFile,
  };
}

/** The section of a README under one `##` heading. */
function section(readme: string, heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) return "";
  const next = readme.indexOf("\n## ", start + 4);
  return readme.slice(start, next < 0 ? undefined : next);
}

/**
 * What in a README's API shapes section dates or versions its source: a
 * day (2026-12-01), a commit (7 to 40 hex digits, at least one a digit and
 * one a letter) or a package version (23.0.2). "API v1" alone is not one:
 * it names the API, not the copy of its description that was read.
 */
function sourceMarks(text: string): string[] {
  const days = text.match(/\b\d{4}-\d{2}-\d{2}\b/g) ?? [];
  const commits = (text.match(/\b[0-9a-f]{7,40}\b/g) ?? []).filter((h) => /\d/.test(h) && /[a-f]/.test(h));
  const versions = text.match(/\b\d+\.\d+\.\d+\b/g) ?? [];
  return [...days, ...commits, ...versions];
}

function hostOf(url: string): string {
  return /^https?:\/\/([^/]+)/.exec(url)?.[1]?.toLowerCase() ?? "";
}

describe.each(entries.map((e) => [e.name, e]))("catalog entry %s", (name, entry) => {
  it("sits in a folder named for its id and holds a stepfile, cases and a README", async () => {
    const { doc } = await load(name);
    expect(doc.id).toBe(name);
    expect(existsSync(join(dirname(entry.file), `${name}.cases.yaml`))).toBe(true);
  }, SLOW);

  it("has the README sections, and its Try it command works as written and shows its real output", async () => {
    const { readme } = await load(name);
    expect(readmeSectionProblems(readme)).toEqual([]);
    const tryIt = readTryIt(readme);
    expect(tryIt, "a ## Try it section with an sh block holding `npx stepgate --test ...` and a text block with its output").toBeDefined();
    expect(tryIt!.args.slice(0, 2)).toEqual(["--test", name]);
    const result = await stepgate(...tryIt!.args);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ agree, 0 differ\n$/);
    expect(tryIt!.output, "run npm run catalog:index to refresh the README's output").toBe(portableOutput(result.stdout, REPO_ROOT));
  }, SLOW);

  it("names a dated or versioned source under API shapes", async () => {
    const { readme, doc } = await load(name);
    const shapes = section(readme, "API shapes");
    expect(shapes, "an ## API shapes section").not.toBe("");
    // An entry that calls no API (its inputs are its only data) has no source to date, and says so.
    if (!Object.values(doc.tools ?? {}).some((t) => t.openapi !== undefined || t.mcp !== undefined)) {
      expect(shapes).toContain("No API");
      return;
    }
    expect(sourceMarks(shapes), "API shapes names a date (YYYY-MM-DD), a commit or a package version (x.y.z) for where its shapes come from").not.toEqual([]);
  }, SLOW);

  it("says in What it needs where every variable it reads comes from", async () => {
    const { doc, readme, file } = await load(name);
    const needs = section(readme, "What it needs");
    for (const variable of entryFacts(doc, file).needs) expect(needs, `What it needs names ${variable}`).toContain(variable);
  }, SLOW);

  it("has a failing verdict on a real gate of every agent step, and one whole run", async () => {
    const { doc, cases } = await load(name);
    const attempts = cases.cases.flatMap((c) => c.steps);
    for (const step of doc.steps.filter((s) => s.instructions !== undefined)) {
      const own = new Set((step.gates ?? []).map((g) => g.id));
      const caught = attempts.some((a) => a.step === step.id && typeof a.expect === "object" && a.expect.fail.some((g) => own.has(g)));
      expect(caught, `a case where step ${step.id} fails one of its own gates (${[...own].join(", ")})`).toBe(true);
    }
    const required = doc.steps.filter((s) => s.when === undefined).map((s) => s.id);
    const whole = cases.cases.some((c) => required.every((id) => c.steps.some((a) => a.step === id && a.expect === "pass")));
    expect(whole, `a case that passes every step (${required.join(", ")}) from start to end`).toBe(true);
  }, SLOW);

  it("declares credentials and hosts narrowly", async () => {
    const { doc } = await load(name);
    const tools = Object.entries(doc.tools ?? {});
    for (const [tool, def] of tools) {
      const url = def.openapi?.server ?? def.mcp?.url ?? def.verifier?.url ?? "";
      expect(hostOf(url), `tool ${tool} names a host`).not.toBe("");
      expect(url, `tool ${tool} has no wildcard`).not.toContain("*");
    }
    for (const [credential, def] of Object.entries(doc.credentials ?? {})) {
      const users = tools.filter(([, t]) => t.credential === credential);
      expect(users.length, `credential ${credential} is used by a tool`).toBeGreaterThan(0);
      const used = new Set(users.map(([, t]) => hostOf(t.openapi?.server ?? t.mcp?.url ?? t.verifier?.url ?? "")));
      for (const host of def.hosts) {
        expect(host, `credential ${credential} host has no wildcard`).not.toContain("*");
        expect([...used], `credential ${credential} lists ${host}, which none of its tools calls`).toContain(host.toLowerCase());
      }
      expect(def.description.length, `credential ${credential} says what it is and where to get it`).toBeGreaterThan(30);
    }
    for (const step of doc.steps) {
      for (const gate of step.gates ?? []) if (gateKind(gate) === "approve") expect(gate.approve!.message.length).toBeGreaterThan(20);
    }
  }, SLOW);
});

describe("the catalog as a whole", () => {
  it("tells a dated or versioned source from an undated one", () => {
    // The READMEs of issue 28 that named only a page and "API v1" failed this.
    expect(sourceMarks("The Wikimedia REST API v1 `GET /page/summary/{title}` as documented at en.wikipedia.org/api/rest_v1/")).toEqual([]);
    expect(sourceMarks("page (read 2026-12-02)")).toEqual(["2026-12-02"]);
    expect(sourceMarks("api/v3/api.proto, commit 80ba010")).toEqual(["80ba010"]);
    expect(sourceMarks("`@octokit/openapi` 23.0.2")).toEqual(["23.0.2"]);
  });

  it("has an index that matches the entries (npm run catalog:index writes it)", async () => {
    const expected = indexText(root, await indexedEntries(root));
    expect(readFileSync(join(root, "README.md"), "utf8")).toBe(expected);
  }, SLOW);

  it("has a CONTRIBUTING.md that states the README contract", () => {
    const text = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
    for (const heading of ["What it does", "When to use it", "What it needs", "Example inputs", "What the gates guarantee", "What they cannot catch", "API shapes", "Try it"]) {
      expect(text).toContain(`## ${heading}`);
    }
  }, SLOW);

  it("meets the counts of issue 10, and prints them", async () => {
    const loaded = await Promise.all(entries.map(async (e) => ({ category: e.category, facts: entryFacts((await loadStepfileFile(e.file, e.name)).doc, e.file) })));
    const counts = catalogCounts(loaded);
    process.stdout.write(`catalog counts: ${countsLine(counts)}\n`);
    const minimums: Array<[string, number, number]> = [
      ["entries", counts.entries, 25],
      ["domains", counts.domains, 14],
      ["with mechanical steps", counts.mechanical, 12],
      ["starting or ending with a mechanical step", counts.mechanicalEnds, 3],
      ["with approve gates", counts.approve, 6],
      ["with http verifier gates", counts.httpVerifier, 3],
      ["needing credentials", counts.credentials, 6],
      ["with an api_key credential", counts.credentialKinds.api_key, 1],
      ["with a bearer credential", counts.credentialKinds.bearer, 1],
      ["with a basic credential", counts.credentialKinds.basic, 1],
      ["with oauth2 refresh tokens", counts.oauth2Refresh, 2],
      ["with settings", counts.settings, 3],
      ["using a remote MCP tool", counts.remoteMcp, 2],
      ["written as JSON", counts.json, 2],
      ["keyless", counts.keyless, 8],
    ];
    const short = minimums.filter(([, got, min]) => got < min).map(([what, got, min]) => `${what}: ${got} < ${min}`);
    expect(short).toEqual([]);
  }, SLOW);
});

function countsLine(c: CatalogCounts): string {
  const kinds = Object.entries(c.credentialKinds)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    `${c.entries} entries`,
    `${c.domains} domains`,
    `${c.mechanical} mechanical (${c.mechanicalEnds} start or end with one)`,
    `${c.approve} approve`,
    `${c.httpVerifier} http verifier`,
    `${c.credentials} with credentials (${kinds})`,
    `${c.oauth2Refresh} oauth2 refresh`,
    `${c.settings} settings`,
    `${c.remoteMcp} remote MCP`,
    `${c.json} JSON`,
    `${c.keyless} keyless`,
  ].join("; ");
}
