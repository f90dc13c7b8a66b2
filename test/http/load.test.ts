// Issue 12, load (test-sized): 200 sessions at once over HTTP, each running a
// whole run against the built CLI: a mechanical step's call and the client's
// own call to an API on loopback, an evidence gate failed once and passed,
// a sign-off (test/support/load-run.ts). Every run finishes, every ledger
// verifies with `stepgate --verify` (a closed, unbroken chain: a record lost
// anywhere breaks it or leaves it open), and the records other than `retry`
// add up to RECORDS_PER_RUN per run. The figures (p50/p99, peak RSS) are printed;
// bench/load.bench.ts runs 1,000.
import { expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { loadRun, RECORDS_PER_RUN } from "../support/load-run.js";

const SESSIONS = 200;

// Two processes (the server, then --verify), and each session's five replies
// in a row, each queued behind the other sessions' calls on a loaded machine.
it(`finishes ${SESSIONS} concurrent runs with every ledger verified`, { timeout: budget({ starts: 2, replies: 8 }) }, async () => {
  const result = await loadRun(SESSIONS, 1);
  console.log(`load: ${JSON.stringify(result)}`);
  expect(result.runs).toBe(SESSIONS);
  expect(result.finished).toBe(SESSIONS);
  expect(result.ledgers).toBe(SESSIONS);
  expect(result.verified).toBe(SESSIONS);
  expect(result.records).toBe(SESSIONS * RECORDS_PER_RUN);
});
