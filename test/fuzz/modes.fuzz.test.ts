// Issue 29, fuzzing every mode of the built CLI with structure-aware input:
// stepfiles built field by field from the format's structure (right and
// wrong types, ids that break the id rule, NaN and infinities, deep flow
// nesting spliced in, unknown fields), spelled as YAML or JSON and now and
// then cut or spliced, then served, checked with `--check --json` and
// replayed with `--test` against a cases file built the same way. Every
// process must end by itself (no hang), with an exit code the mode
// documents (never 70, an internal error, or a signal such as SIGABRT), and
// say nothing of an internal error or a stack trace. Counts: FUZZ_RUNS (see
// runs.ts; FUZZ_TEST_PAIRS and FUZZ_SEED for --test); `--check` and serving take a batch
// of files per process.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { stepgateBin } from "../support/paths.js";
import { FUZZ_RUNS, fuzzTimeout } from "./runs.js";
import { stdioOpening } from "../support/stdio-opening.js";

const work = mkdtempSync(join(tmpdir(), "stepgate-modes-fuzz-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A process that runs longer than this is a hang (no timing assertion: a working mode ends in well under a second). */
const HANG_MS = 60_000;
/** Files per `--check` or serving process. */
const BATCH = 25;

const idLike = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), fc.constantFrom("../escape", "A", "", "x".repeat(70), "a/b"), fc.string({ maxLength: 8 }));
const oddNumber = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e308, 2 ** 53 + 1);
const scalar = fc.oneof(fc.string({ maxLength: 16 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), oddNumber);
const loose = fc.oneof(scalar, fc.jsonValue({ maxDepth: 3 }));
const schema = fc.oneof(
  fc.constant({ type: "object" }),
  fc.record(
    {
      type: fc.constantFrom("object", "string", "number", "array", "bogus"),
      required: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
      properties: fc.dictionary(fc.string({ maxLength: 6 }), fc.record({ type: fc.constantFrom("string", "number", "integer") }), { maxKeys: 3 }),
      pattern: fc.constantFrom("^a+$", "(a+)+$", "(?<=x)", "["),
      maximum: fc.oneof(fc.integer(), oddNumber),
      $ref: fc.constantFrom("#/$defs/a", "#/$defs/missing", "http://127.0.0.1:9/x"),
    },
    { requiredKeys: [] },
  ),
  loose,
);
const expression = fc.oneof(
  fc.constant({ "==": [{ var: "output.x" }, 1] }),
  fc.record({ var: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("inputs.x", "steps.a.x", "let.y")) }),
  fc.record({ regex_match: fc.tuple(fc.constantFrom("(a+)+", "[", "\\p{L}"), fc.constant({ var: "output.x" })) }),
  loose,
);
const gate = fc.record(
  { id: idLike, schema, predicate: expression, message: fc.string({ maxLength: 20 }), http: fc.record({ tool: idLike }), approve: fc.record({ message: fc.string() }), extra: loose },
  { requiredKeys: ["id"] },
);
const agentStep = fc.record(
  {
    id: idLike,
    instructions: fc.oneof(fc.string({ maxLength: 30 }), fc.constant("Use {{inputs.x}} and {{steps.nope.y}}")),
    produces: schema,
    gates: fc.array(gate, { maxLength: 3 }),
    retries: fc.oneof(fc.nat(5), scalar),
    tools: fc.array(idLike, { maxLength: 2 }),
    when: expression,
    derive: fc.dictionary(fc.string({ maxLength: 5 }), expression, { maxKeys: 2 }),
    let: fc.dictionary(fc.string({ maxLength: 5 }), expression, { maxKeys: 2 }),
  },
  { requiredKeys: ["id", "instructions", "produces"] },
);
const mechanicalStep = fc.record(
  {
    id: idLike,
    do: fc.array(fc.record({ id: idLike, call: idLike, arguments: fc.dictionary(fc.string({ maxLength: 5 }), loose, { maxKeys: 2 }), each: expression }, { requiredKeys: ["id", "call"] }), { maxLength: 2 }),
    output: loose,
    produces: schema,
  },
  { requiredKeys: ["id", "do"] },
);
const tool = fc.oneof(
  fc.record({
    openapi: fc.record({
      server: fc.constantFrom("https://api.example.com", "http://127.0.0.1:9", "ftp://x", "https://user:pw@api.example.com"),
      document: fc.oneof(fc.constant({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/a": { get: { operationId: "a" } } } }), loose),
    }, { requiredKeys: [] }),
    exposes: fc.array(fc.oneof(idLike, fc.constantFrom("a", "missing")), { maxLength: 3 }),
    credential: idLike,
  }, { requiredKeys: ["openapi"] }),
  fc.record({ mcp: fc.record({ url: fc.constantFrom("https://mcp.example.com/mcp", "nope") }), exposes: fc.array(idLike, { maxLength: 2 }) }),
  loose,
);
const stepfileDoc = fc.record(
  {
    stepgate: fc.constantFrom("1", "1", "1", "2", 1),
    id: idLike,
    title: fc.string({ maxLength: 20 }),
    description: fc.string({ maxLength: 40 }),
    inputs: schema,
    steps: fc.array(fc.oneof(agentStep, mechanicalStep, loose), { minLength: 0, maxLength: 4 }),
    tools: fc.dictionary(idLike, tool, { maxKeys: 2 }),
    credentials: fc.dictionary(idLike, fc.record({ kind: fc.constantFrom("api_key", "bearer", "basic", "oauth2", "nope"), hosts: fc.array(fc.constantFrom("api.example.com", "127.0.0.1", "*"), { maxLength: 2 }) }, { requiredKeys: [] }), { maxKeys: 2 }),
    settings: fc.dictionary(idLike, fc.record({ description: fc.string(), pattern: fc.string({ maxLength: 6 }) }, { requiredKeys: [] }), { maxKeys: 2 }),
    $defs: fc.dictionary(fc.string({ maxLength: 4 }), schema, { maxKeys: 2 }),
    unknownField: loose,
  },
  { requiredKeys: ["stepgate", "id", "inputs", "steps"] },
);
const casesDoc = fc.record({
  cases: fc.oneof(
    fc.array(
      fc.record(
        {
          name: fc.oneof(fc.string({ maxLength: 20 }), fc.constant("n".repeat(5_000))),
          inputs: fc.dictionary(fc.string({ maxLength: 5 }), loose, { maxKeys: 2 }),
          steps: fc.array(fc.record({ step: idLike, calls: fc.array(fc.record({ tool: idLike, arguments: loose, result: loose, is_error: fc.boolean() }, { requiredKeys: [] }), { maxLength: 2 }), output: loose, expect: fc.oneof(fc.constant("pass"), fc.record({ fail: fc.array(idLike, { maxLength: 2 }) }), loose), extra: loose }, { requiredKeys: ["step"] }), { maxLength: 3 }),
          unknown: loose,
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
    loose,
  ),
});

/** How a document is written out: YAML (NaN as `.nan`), JSON on one line or many (NaN as `1e999`'s kin), then maybe spliced with deep nesting or cut. */
const spelling = fc.record({
  as: fc.constantFrom("yaml", "json", "json-lines"),
  splice: fc.option(fc.record({ at: fc.nat(), text: fc.oneof(fc.constantFrom("[".repeat(1_000), '{"a":'.repeat(1_000), "- ".repeat(300), ".nan", "1e999", "&a [*a]", "\u0000", "\t"), fc.string({ maxLength: 10 })) }), { nil: undefined }),
  cut: fc.option(fc.nat(), { nil: undefined }),
});

function spell(doc: unknown, how: { as: string; splice?: { at: number; text: string }; cut?: number }): string {
  let text: string;
  if (how.as === "yaml") text = stringify(doc);
  else {
    // JSON has no NaN or infinity; a number too large for a double is how a JSON text holds one.
    const json = JSON.stringify(doc, (_key, value: unknown) => (typeof value === "number" && !Number.isFinite(value) ? "__NONFINITE__" : value), how.as === "json" ? undefined : 2) ?? "null";
    text = json.replaceAll('"__NONFINITE__"', "1e999");
  }
  if (how.splice) {
    const at = how.splice.at % (text.length + 1);
    text = text.slice(0, at) + how.splice.text + text.slice(at);
  }
  if (how.cut !== undefined && how.cut % 4 === 0) text = text.slice(0, how.cut % (text.length + 1));
  return text;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  hung: boolean;
}

function run(args: readonly string[], stdin = ""): Promise<Ended> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [stepgateBin(), ...args], { cwd: work, env: { PATH: process.env.PATH ?? "", HOME: work, XDG_CACHE_HOME: join(work, "cache") }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, HANG_MS);
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, hung });
    });
    child.stdin.end(stdin);
  });
}

/** What every mode must hold to: ended by itself, with one of `codes`, no internal error and no stack trace. */
function expectClean(ended: Ended, codes: readonly number[], what: string): void {
  const said = `${what}\n${ended.stderr.slice(0, 2_000)}`;
  expect(ended.hung, said).toBe(false);
  expect(ended.signal, said).toBeNull();
  expect(codes, said).toContain(ended.code);
  expect(`${ended.stdout}\n${ended.stderr}`, said).not.toMatch(/internal error|InternalError|FATAL ERROR|\n\s+at .+:\d+:\d+\)?\n/);
}

let written = 0;
function writeFiles(texts: readonly string[], suffix: (text: string) => string): string[] {
  return texts.map((text) => {
    const file = join(work, `f${++written}.${suffix(text)}`);
    writeFileSync(file, text);
    return file;
  });
}
const stepfileName = (text: string) => (text.trimStart().startsWith("{") ? "stepfile.json" : "stepfile.yaml");

const OPENING = stdioOpening("modes-fuzz");

const stepfileTexts = (count: number, seed: number) => fc.sample(fc.tuple(stepfileDoc, spelling).map(([doc, how]) => spell(doc, how)), { numRuns: count, seed });

describe("every mode of the built CLI, given structure-aware malformed stepfiles", () => {
  it("holds for the 1,000-deep JSON stepfile of issue 29 in --check, --check --json, serving and --test", async () => {
    const [file] = writeFiles([`{"stepgate":"1","id":"d","inputs":${'{"a":'.repeat(1_000)}1${"}".repeat(1_000)},"steps":[]}`], () => "stepfile.json");
    const check = await run(["--check", file!]);
    expectClean(check, [1], "--check");
    expect(check.stdout).toMatch(/:1:\d+: error: \(top level\): nesting is deeper than 128 levels/);
    const json = await run(["--check", "--json", file!]);
    expectClean(json, [1], "--check --json");
    expect((JSON.parse(json.stdout) as { files: Array<{ errors: Array<{ message: string }> }> }).files[0]!.errors[0]!.message).toBe("nesting is deeper than 128 levels");
    expectClean(await run([file!], OPENING), [1], "serve");
    const [cases] = writeFiles(["cases: []\n"], () => "cases.yaml");
    expectClean(await run(["--test", file!, cases!]), [1], "--test");
  }, fuzzTimeout(1_000));

  it("ends --check --json on each batch with its JSON report", async () => {
    const texts = stepfileTexts(FUZZ_RUNS, 29);
    for (let start = 0; start < texts.length; start += BATCH) {
      const files = writeFiles(texts.slice(start, start + BATCH), stepfileName);
      const ended = await run(["--check", "--json", ...files]);
      expectClean(ended, [0, 1, 2], `--check --json ${files.join(" ")}`);
      const report = JSON.parse(ended.stdout) as { files: unknown[] };
      expect(report.files).toHaveLength(files.length);
    }
  }, fuzzTimeout(500));

  it("ends serving each batch in a refusal or an answered tools/list", async () => {
    const texts = stepfileTexts(FUZZ_RUNS, 2_900);
    for (let start = 0; start < texts.length; start += BATCH) {
      const files = writeFiles(texts.slice(start, start + BATCH), stepfileName);
      const ended = await run(["--ledger-dir", join(work, "ledgers"), ...files], OPENING);
      expectClean(ended, [0, 1], `serve ${files.join(" ")}`);
      // A refusal names each failure with its error type, never as Stepgate's own.
      for (const line of ended.stderr.split("\n").filter((l) => l !== "" && !/^\s/.test(l))) expect(line, line).not.toMatch(/^stepgate: (?!.*warning)/);
      if (ended.code === 0) expect(ended.stdout).toContain('"id":2');
    }
  }, fuzzTimeout(500));

  it("ends --test on a stepfile and cases file pair in a verdict or a refusal", async () => {
    // One process per pair: a fifth of the count unless FUZZ_TEST_PAIRS says how many.
    const count = Number(process.env.FUZZ_TEST_PAIRS ?? Math.max(4, Math.ceil(FUZZ_RUNS / 5)));
    const pairs = fc.sample(fc.tuple(fc.tuple(stepfileDoc, spelling), fc.tuple(casesDoc, spelling), fc.boolean()), { numRuns: count, seed: Number(process.env.FUZZ_SEED ?? 290) });
    for (const [[doc, how], [cases, casesHow], validStepfile] of pairs) {
      // Half the pairs replay against a stepfile that loads, so the cases file itself is what gets fuzzed.
      const stepfile = validStepfile ? GREET : spell(doc, how);
      const [file] = writeFiles([stepfile], stepfileName);
      const [casesFile] = writeFiles([spell(cases, { ...casesHow, as: casesHow.as === "yaml" ? "yaml" : "json-lines" })], () => "cases.yaml");
      expectClean(await run(["--test", file!, casesFile!]), [0, 1, 2], `--test ${file} ${casesFile}`);
    }
  }, fuzzTimeout(5_000));
});

const GREET = `stepgate: "1"
id: greet
inputs: { type: object, properties: { name: { type: string } } }
steps:
  - id: hello
    instructions: "Greet {{inputs.name}}."
    produces: { type: object, required: [greeting], properties: { greeting: { type: string } } }
    gates:
      - { id: names-them, message: the greeting must contain the name, predicate: { in: [{ var: inputs.name }, { var: output.greeting }] } }
`;
