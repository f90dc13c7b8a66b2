// What `stepgate --check --json` and stepgate_validate say of one finding,
// and stepgate_validate's answer to a text, for the tests that compare them.
import type { SpawnedStepgate } from "./stepgate.js";

export interface Finding {
  path: string;
  message: string;
  line: number;
  column: number;
  rule: string;
}

export interface Validated {
  /** The answer's text. */
  text: string;
  valid: boolean;
  warnings?: Finding[];
}

/** stepgate_validate's answer to `text`, from a Stepgate served over stdio. */
export async function validated(server: SpawnedStepgate, text: string): Promise<Validated> {
  const answer = (await server.client.callTool({ name: "stepgate_validate", arguments: { text } })) as { content: Array<{ text: string }>; structuredContent: { valid: boolean; warnings?: Finding[] } };
  return { text: answer.content[0]!.text, ...answer.structuredContent };
}
