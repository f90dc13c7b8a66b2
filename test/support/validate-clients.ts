// Two authoring clients of the built CLI over stdio, one whose operator
// granted drafts a host with --draft-host and one that granted nothing, and
// stepgate_validate through either: what the checks that fetch while
// validating (pinned documents, MCP listings) are tested with.
import { afterAll, beforeAll } from "vitest";
import { spawnStepgate, type SpawnedStepgate } from "./stepgate.js";

export interface ValidateAnswer<F> {
  content: Array<{ text: string }>;
  structuredContent: { valid: boolean; warnings?: F[] };
}

/** Registers the two clients in the calling describe block; `host` is read when they start (after the servers listen). */
export function validateClients<F>(host: () => string): {
  granted: (text: string) => Promise<ValidateAnswer<F>>;
  ungranted: (text: string) => Promise<ValidateAnswer<F>>;
} {
  let granted: SpawnedStepgate;
  let ungranted: SpawnedStepgate;
  beforeAll(async () => {
    granted = await spawnStepgate(["--draft-host", host()]);
    ungranted = await spawnStepgate([]);
  }, 60_000);
  afterAll(async () => {
    await granted.close();
    await ungranted.close();
  });
  const validate = async (client: SpawnedStepgate, text: string) => (await client.client.callTool({ name: "stepgate_validate", arguments: { text } })) as ValidateAnswer<F>;
  return { granted: (text) => validate(granted, text), ungranted: (text) => validate(ungranted, text) };
}
