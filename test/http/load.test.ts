// Issue 12, load (test-sized): 200 sessions at once over HTTP, each running
// the greet stepfile start to finish (one failing submit, two passing) against
// the built CLI; every run finishes, every ledger verifies with
// `stepgate --verify` (a closed, unbroken chain: a record lost anywhere
// breaks it or leaves it open), and the records add up to 12 per run. The
// figures (p50/p99, peak RSS) are printed; bench/load.bench.ts runs 1,000.
import { expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { loadRun } from "../support/load-run.js";

const SESSIONS = 200;

// Two processes (the server, then --verify), and each session's four replies
// in a row, each queued behind the other sessions' calls on a loaded machine.
it(`finishes ${SESSIONS} concurrent runs with every ledger verified`, { timeout: budget({ starts: 2, replies: 8 }) }, async () => {
  const result = await loadRun(SESSIONS, 1);
  console.log(`load: ${JSON.stringify(result)}`);
  expect(result.runs).toBe(SESSIONS);
  expect(result.finished).toBe(SESSIONS);
  expect(result.ledgers).toBe(SESSIONS);
  expect(result.verified).toBe(SESSIONS);
  // run_started, step_started, submit, gate (fail), submit, gate (pass), step_passed, step_started, submit, gate, step_passed, run_finished: none lost.
  expect(result.records).toBe(SESSIONS * 12);
});
