// Issue 12, load (test-sized): 50 sessions at once over HTTP, each running
// the greet stepfile start to finish against the built CLI; every run
// finishes, every ledger verifies, and each run has its 10 records. The
// figures (p50/p99, peak RSS) are printed; bench/load.bench.ts runs 1,000.
import { expect, it } from "vitest";
import { loadRun } from "../support/load-run.js";

it("finishes 50 concurrent runs with every ledger verified", { timeout: 300_000 }, async () => {
  const result = await loadRun(50, 1);
  console.log(`load: ${JSON.stringify(result)}`);
  expect(result.runs).toBe(50);
  expect(result.finished).toBe(50);
  expect(result.ledgers).toBe(50);
  expect(result.verified).toBe(50);
  // run_started, step_started, submit, gate (fail), submit, gate (pass), step_passed, step_started, submit, gate, step_passed, run_finished: none lost.
  expect(result.records).toBe(50 * 12);
});
