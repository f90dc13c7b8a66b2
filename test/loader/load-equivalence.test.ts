// Every stepfile's load result is the same whichever way the load goes:
// the fast YAML read (src/format/fast-yaml.ts) against the positioned parse
// alone, and a load cache hit (what src/cli/load-cache.ts keeps, through its
// own serialisation) against the full load. Differential: both sides run the
// loader of this tree, so the test keeps holding whatever findings the
// loader comes to make. Compared: the error (type, message, issues with
// line and column) or the document, identity, warnings, the compiled
// stepfile's shape, and what its schemas answer.
import { afterAll, describe, expect, it, vi } from "vitest";
import type { CompiledStepfile } from "../../src/loader/compile.js";
import type { CachedLoad, CheckedStepfile, LoadCache, LoadedStepfile } from "../../src/loader/load.js";
import { cacheKey, entryText, readEntry } from "../../src/cli/load-cache.js";
import { loadCorpus, withLinesRemoved } from "../support/load-corpus.js";

type Loader = typeof import("../../src/loader/load.js");

const corpus = loadCorpus();
const texts = corpus.flatMap(({ name, text }) => [{ name, text }, ...withLinesRemoved(text).map((t, i) => ({ name: `${name} (line removed at quarter ${i + 1})`, text: t }))]);

/** The loader with the fast read, and the loader with only the positioned parse: one module graph each. */
async function loaders(): Promise<{ fast: Loader; positioned: Loader }> {
  const fast = await import("../../src/loader/load.js");
  vi.resetModules();
  vi.doMock("../../src/format/fast-yaml.js", () => ({ fastParse: () => undefined }));
  const positioned = await import("../../src/loader/load.js");
  vi.doUnmock("../../src/format/fast-yaml.js");
  vi.resetModules();
  return { fast, positioned };
}

afterAll(() => vi.doUnmock("../../src/format/fast-yaml.js"));

/** Samples every schema of a stepfile is asked about: what lazy and eager validators answer must agree. */
const SAMPLES: unknown[] = [{}, [], "text", 0, null, { items: [{ id: 1 }], count: "x" }];

/** Data every compiled expression, template and predicate is evaluated on. */
const DATA: Array<Record<string, unknown>> = [{}, { inputs: {}, output: {}, steps: {} }, { inputs: { a: 1 }, output: { items: [{ id: "x", price: 1 }], count: 1 }, item: "x" }];

/** What a function answers, or the error it throws, as data. */
function answer(run: () => unknown): unknown {
  try {
    const value = run();
    return value === undefined ? "(undefined)" : value;
  } catch (error) {
    return `(throws ${(error as Error).name}: ${(error as Error).message})`;
  }
}

/** The compiled stepfile as data: validators with their answers to SAMPLES, other functions with their answers to DATA. */
function compiledShape(compiled: CompiledStepfile): unknown {
  const seen = new WeakSet<object>();
  return JSON.parse(
    JSON.stringify(compiled, (key, value: unknown) => {
      if (typeof value === "function") {
        const validator = value as { schema?: unknown; errors?: unknown } & ((data: unknown) => unknown);
        if (validator.schema === undefined) return { function: key, answers: DATA.map((data) => answer(() => validator(data))) };
        return { schema: validator.schema, answers: SAMPLES.map((sample) => ({ valid: answer(() => validator(sample)), errors: validator.errors ?? null })) };
      }
      if (typeof value === "object" && value !== null && key === "def") {
        // The step's own definition is in the document, compared there.
        if (seen.has(value)) return "(def)";
        seen.add(value);
        return "(def)";
      }
      return value;
    }),
  );
}

/** One load as comparable data: its refusal, or everything it gives. */
function outcome(load: () => LoadedStepfile): unknown {
  try {
    const loaded = load();
    return { doc: loaded.doc, identity: loaded.identity, warnings: loaded.warnings, source: loaded.source, compiled: compiledShape(loaded.compiled) };
  } catch (error) {
    const e = error as Error & { details?: unknown };
    if (!/^Stepfile/.test(e.name)) throw error;
    return { error: e.name, message: e.message, details: e.details };
  }
}

/** A cache in memory that keeps entries as the disk cache writes them, so a hit reads back what the CLI would. */
function memoryCache(): LoadCache & { hits: number; entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const cache = {
    hits: 0,
    entries,
    get(text: string): CachedLoad | undefined {
      const key = cacheKey(text, "test-build");
      const entry = entries.get(key);
      const checked = entry === undefined ? undefined : readEntry(entry, key);
      if (checked) cache.hits += 1;
      return checked;
    },
    set(text: string, checked: CheckedStepfile) {
      const key = cacheKey(text, "test-build");
      const entry = entryText(key, checked);
      if (entry !== undefined) entries.set(key, entry);
    },
  };
  return cache;
}

describe("a stepfile's load result, whichever way the load goes", () => {
  it("covers the catalog, the compatibility corpus, the fixtures and the conformance cases", () => {
    const names = corpus.map((c) => c.name);
    expect(names.filter((n) => n.startsWith("awesome-stepfiles/")).length).toBeGreaterThanOrEqual(28);
    expect(names.filter((n) => n.startsWith("test/compat/")).length).toBeGreaterThan(10);
    expect(names.filter((n) => n.includes(".case.yaml")).length).toBeGreaterThan(10);
  });

  it("is the same read fast as with the positioned parse alone", async () => {
    const { fast, positioned } = await loaders();
    let refused = 0;
    for (const { name, text } of texts) {
      const expected = outcome(() => positioned.loadStepfileText(text, name));
      if ("error" in (expected as object)) refused += 1;
      expect(outcome(() => fast.loadStepfileText(text, name)), name).toStrictEqual(expected);
    }
    // The removed lines must reach refusals too, or the comparison says nothing about them.
    expect(refused).toBeGreaterThan(10);
  }, 300_000);

  it("is the same from a load cache hit as from the full load", async () => {
    const { fast } = await loaders();
    const cache = memoryCache();
    let kept = 0;
    for (const { name, text } of texts) {
      const full = outcome(() => fast.loadStepfileText(text, name));
      // The first load through the cache is a miss that keeps the result; the second is a hit.
      expect(outcome(() => fast.loadStepfileText(text, name, cache)), name).toStrictEqual(full);
      const hits = cache.hits;
      expect(outcome(() => fast.loadStepfileText(text, name, cache)), name).toStrictEqual(full);
      if (cache.hits > hits) kept += 1;
      else expect(full, `${name} loads but was not kept`).toHaveProperty("error");
    }
    expect(kept).toBeGreaterThan(corpus.length / 2);
  }, 300_000);
});
