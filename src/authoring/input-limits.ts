// The largest inputs stepgate_validate, stepgate_try and stepgate_test take.
// Their work (parse with positions, the loader's checks and warnings, a run
// of every case) runs on the server's one event loop, which every session
// shares: a call holds it for as long as that work takes, so the size of
// the input is what bounds how long other sessions wait. Bounding the input
// was chosen over moving the work to worker threads (docs/architecture.md,
// "Authoring work and the event loop"): the loader, the engine and the
// offline runner would have to be loaded again in each worker, and a draft
// is a hand-written stepfile (the catalog's largest is 22 KB), so a bound
// above that size costs authors little (a large inline OpenAPI document can
// be pinned by url and sha256 instead).
//
// Measured worst case at these bounds (2026-12-02, the project's shared
// 2-core machine at a load average of about 2.8): a 32 KiB draft of 85
// steps, each with a predicate and a schema gate (the heaviest shape per
// byte found), took 230-260 ms in stepgate_validate, and another session's
// ping waited up to 236 ms behind it; the same shape at 64 KiB held the
// loop for about 0.9 s, and at 256 KiB for 0.7-1.8 s
// (test/http/authoring-bounds.test.ts prints what it measures). A cases
// file is read whole in one turn: the catalog's largest (165 KB) kept
// another session's ping waiting up to 210 ms; at the 256 KiB bound it was
// not measured, and by size would be about 330 ms. stepgate_test
// also yields to the loop before each case and each mutant
// (src/offline/run-cases.ts), so a long mutation run holds it only for one
// run at a time.
//
// Counts are bounded too, for what the bytes leave open: a draft's steps
// (its load and every check walk them; 200 is stepgate_outline's own bound,
// so any skeleton it writes can be validated, tried and tested), the cases
// of one stepgate_test call (each is a run; the catalog's most is 6), and
// the wrong outputs played per entry with mutate (a call's whole work is
// cases x entries x mutants runs: yielding keeps other sessions answered,
// the bound keeps one call from taking the server's CPU for minutes).

/**
 * The largest procedure outlined, in bytes of markdown and in steps. The
 * work runs on the server's one event loop, so every other session waits
 * for it: a 20,000-item procedure held them all for about 27 s (issue 29).
 * A procedure past either bound is refused with what to do instead; a
 * stepfile of 200 steps is already far beyond what one person reviews.
 * Kept here with the other tools' bounds, which the tools' descriptions
 * state (definitions.ts).
 */
export const OUTLINE_LIMITS = { markdownBytes: 256 * 1024, steps: 200 } as const;

/** The tools whose arguments are bounded. */
export const BOUNDED_TOOLS: ReadonlySet<string> = new Set(["stepgate_validate", "stepgate_try", "stepgate_test"]);

/** Bytes of UTF-8 each argument may hold. */
export const AUTHORING_INPUT_LIMITS = {
  /** A draft stepfile: half as large again as the catalog's largest entry. */
  text: 32 * 1024,
  /** A cases file: recorded API responses make these larger (the catalog's largest is 165 KB, the compatibility corpus's 216 KB). */
  cases: 256 * 1024,
  /** An accepted-survivors file for stepgate_test's mutate. */
  accepted: 256 * 1024,
} as const;

/** How many of each a bounded tool takes in one call. */
export const AUTHORING_COUNT_LIMITS = {
  /** Steps of a draft (text) in stepgate_validate, stepgate_try and stepgate_test. */
  steps: OUTLINE_LIMITS.steps,
  /** Cases in stepgate_test's cases. */
  cases: 100,
  /** stepgate_test's mutants: wrong outputs played per entry with mutate. */
  mutants: 200,
} as const;

/** The refusal of a count past its bound, in the same words as a size's. */
export function tooMany(tool: string, name: string, what: string, count: number, most: number): string {
  return `${tool} refused: ${name} holds ${count} ${what}, and ${tool} takes at most ${most} ${what} in one call: every session of this server waits while one is checked, so split the draft or its cases`;
}

/**
 * Why a draft's text holds too many steps; undefined when it fits or does
 * not parse (the tool itself then reports why). Parsed here, before the
 * tool's work: a text within the size bound parses in milliseconds.
 */
export async function tooManySteps(tool: string, text: unknown): Promise<string | undefined> {
  if (typeof text !== "string") return undefined;
  const { parseSource } = await import("../format/source.js");
  const parsed = parseSource(text);
  if ("issues" in parsed) return undefined;
  const steps = (parsed.data as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) && steps.length > AUTHORING_COUNT_LIMITS.steps ? tooMany(tool, "text", "steps", steps.length, AUTHORING_COUNT_LIMITS.steps) : undefined;
}

/** Why `tool`'s arguments are too large, naming the argument and the limit; undefined when they fit. */
export function oversizedArgument(tool: string, args: Record<string, unknown>): string | undefined {
  for (const [name, most] of Object.entries(AUTHORING_INPUT_LIMITS)) {
    const value = args[name];
    if (typeof value !== "string") continue;
    const bytes = Buffer.byteLength(value);
    if (bytes <= most) continue;
    return `${tool} refused: ${name} is ${bytes} bytes, and ${tool} takes at most ${most} bytes (${most / 1024} KiB) of ${name}: every session of this server waits while one is checked, so split the draft or its cases`;
  }
  return undefined;
}
