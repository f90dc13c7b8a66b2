// How long a test may wait for what it waits for, in one place. The numbers
// are for a loaded machine (load 10-20 on 2 cores is ordinary on shared CI
// runners and on laptops running an agent), where a spawned Node process
// gets a small share of a core: generous enough never to fire on a slow but
// working machine, short enough that a real hang still fails the run. Tests
// never assert on timings; these only bound how long a failure takes to show.
import { availableParallelism } from "node:os";

/** Starting the built CLI (Node start-up, module load, stepfile load) until it answers `initialize` or prints its listening line. */
export const PROCESS_START_MS = 60_000;

/** One request and its reply over a local transport, including engine work and loopback fixtures it calls. */
export const REPLY_MS = 30_000;

/** Closing a client and letting the process exit, with its files flushed. */
export const PROCESS_STOP_MS = 15_000;

/** The time a test that starts `starts` processes and waits for `replies` replies may take. */
export function budget({ starts = 0, replies = 0 }: { starts?: number; replies?: number }): number {
  return starts * (PROCESS_START_MS + PROCESS_STOP_MS) + replies * REPLY_MS;
}

/** How many process-spawning tests run at once in one file: one per core the machine offers, so load follows the machine. */
export const SPAWN_CONCURRENCY = Math.max(1, availableParallelism());
