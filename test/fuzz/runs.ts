// How many cases each fuzz property runs: small in the normal suite, large
// under `npm run fuzz` (or FUZZ_RUNS=<n>), so the same properties serve both.
const LONG_RUNS = 2_000;
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.npm_lifecycle_event === "fuzz" ? LONG_RUNS : 25));

/** A generous per-test timeout that grows with the count. */
export const fuzzTimeout = (perCaseMs: number) => Math.max(60_000, FUZZ_RUNS * perCaseMs);
