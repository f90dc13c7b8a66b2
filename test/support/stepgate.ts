// Starts the built CLI over stdio and connects the SDK's own client to it,
// so integration tests drive Stepgate exactly as a desktop client would.
import { Client, type ClientOptions } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { PROCESS_START_MS } from "./budget.js";
import { stepgateBin } from "./paths.js";

export interface SpawnedStepgate {
  client: Client;
  /** Everything the process wrote to stderr so far (ledger lines land here without --ledger-dir). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The minimal environment a spawned CLI inherits (PATH, HOME, ...), never
 * the test process's whole environment, so a stray credential variable in the
 * developer's shell cannot change what a test sees; plus the run's own cache
 * folder (test/support/cache-home.ts), so no test writes to ~/.cache.
 */
export function cliEnvironment(): Record<string, string> {
  const cacheHome = process.env.XDG_CACHE_HOME;
  return { ...getDefaultEnvironment(), ...(cacheHome ? { XDG_CACHE_HOME: cacheHome } : {}) };
}

/**
 * `env` is added to cliEnvironment(). `clientOptions` are the SDK client's
 * (a 2026-07-28 client: `versionNegotiation: { mode: { pin: "2026-07-28" } }`).
 */
export async function spawnStepgate(args: readonly string[], env: Record<string, string> = {}, clientOptions?: ClientOptions): Promise<SpawnedStepgate> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [stepgateBin(), ...args],
    env: { ...cliEnvironment(), ...env },
    stderr: "pipe",
  });
  const chunks: string[] = [];
  // The stream exists before start(), so nothing printed while loading is lost.
  transport.stderr?.on("data", (chunk: Buffer | string) => chunks.push(chunk.toString()));
  const client = new Client({ name: "stepgate-tests", version: "0.0.0" }, clientOptions);
  try {
    await client.connect(transport, { timeout: PROCESS_START_MS });
  } catch (error) {
    await transport.close().catch(() => undefined);
    const detail = chunks.join("").trim();
    throw new Error(`stepgate did not start: ${(error as Error).message}${detail ? `\n${detail}` : ""}`, { cause: error });
  }
  return {
    client,
    stderr: () => chunks.join(""),
    close: () => client.close().catch(() => undefined),
  };
}
