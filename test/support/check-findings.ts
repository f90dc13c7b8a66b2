// What `stepgate --check --json` and stepgate_validate say of one finding,
// and stepgate_validate's answer to a text, for the tests that compare them.
import { expect } from "vitest";
import { cli } from "./cli-exec.js";
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

/** `stepgate --check --json <file>` of one file: its exit code, its warnings and what it wrote on standard error. */
export async function checkedWarnings(file: string): Promise<{ code: number; warnings: Finding[]; stderr: string }> {
  const run = await cli("--check", "--json", file);
  const report = JSON.parse(run.stdout) as { files: Array<{ warnings: Finding[] }> };
  return { code: run.code, warnings: report.files[0]!.warnings, stderr: run.stderr };
}

/** What a server over stdio without --ledger-dir wrote on standard error: ledger lines only, each a JSON object. */
export function expectLedgerLinesOnly(server: SpawnedStepgate): void {
  for (const line of server.stderr().split("\n").filter((l) => l !== "")) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
}
