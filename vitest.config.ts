import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { budget } from "./test/support/budget.js";

// Concurrency follows the machine: one worker per core, and at most that many
// `.concurrent` tests at once inside a file. Many tests spawn the built CLI,
// so running more at once than there are cores only makes each one slower.
const cores = Math.max(1, availableParallelism());

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The default fits a test that starts one CLI and waits for a few
    // replies; tests that wait for more say so with budget() themselves.
    testTimeout: budget({ starts: 1, replies: 4 }),
    hookTimeout: budget({ starts: 1, replies: 2 }),
    // The load cache of every CLI a test starts goes to a folder of the run (test/support/cache-home.ts).
    globalSetup: ["test/support/cache-home.ts"],
    pool: "forks",
    maxWorkers: cores,
    maxConcurrency: cores,
  },
});
