// Running out of file descriptors (EMFILE for the process, ENFILE for the
// system) is a passing state: connections and other runs' files close, and
// the same open succeeds moments later. The ledger waits it out rather than
// lose a record, for a bounded time: past DESCRIPTOR_WAIT_MS the error
// stands, so a process that never gets a descriptor back still ends.
import { setTimeout as sleep } from "node:timers/promises";

/** How long a ledger write or sync keeps trying for a descriptor before it gives up. */
export const DESCRIPTOR_WAIT_MS = 30_000;

export function isOutOfDescriptors(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "EMFILE" || code === "ENFILE";
}

/** The wait before try number `attempt + 2`: 10 ms doubling to 500 ms. */
export function descriptorDelay(attempt: number): number {
  return Math.min(500, 10 * 2 ** Math.min(attempt, 6));
}

/** Waits before the next try; throws `error` once the tries so far have waited DESCRIPTOR_WAIT_MS. */
export async function waitForDescriptors(attempt: number, error: unknown): Promise<void> {
  let waited = 0;
  for (let i = 0; i < attempt; i++) waited += descriptorDelay(i);
  if (waited >= DESCRIPTOR_WAIT_MS) throw error;
  await sleep(descriptorDelay(attempt));
}
