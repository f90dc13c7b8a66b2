// Issue 12: 2,000 malformed HTTP requests once grew the server's RSS from
// 105 to 355 MB, because sessions opened by junk `initialize` calls lived
// until the idle timeout. Here the built CLI gets two rounds of 2,000 junk
// requests (half of them `initialize` calls never followed) with its heap
// capped at 48 MB: a server that kept what the junk left behind would run out
// of heap and die, and one that did not reap the junk sessions would refuse
// the second round's `initialize` calls (past --max-sessions, 1,000) with
// 503. The resident-set figures are printed; bench/junk-requests.bench.ts
// reports them without the heap cap.
import { expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { junkRequests } from "../support/junk-requests.js";

it("serves on after two rounds of 2,000 junk requests under a 48 MB heap, the junk sessions reaped in between", { timeout: budget({ starts: 1, replies: 6 }) }, async () => {
  const result = await junkRequests(2_000, { rounds: 2, env: { NODE_OPTIONS: "--max-old-space-size=48" } });
  console.log(`junk: ${JSON.stringify(result)}`);
  expect(result.servesAfter).toBe(true);
  // Never a server error; 503 is the session cap's answer.
  expect(Object.keys(result.statuses).filter((status) => Number(status) >= 500 && status !== "503")).toEqual([]);
  // Each round sends 1,000 initialize calls; unreaped, the second round's would all get 503.
  expect(result.statuses["200"]).toBeGreaterThan(1_900);
  expect(result.statuses["503"] ?? 0).toBeLessThan(100);
});
