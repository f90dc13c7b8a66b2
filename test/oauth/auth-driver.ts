// Runs `stepgate --auth` through the built CLI with a scripted person: as
// soon as the authorization URL is printed (the first line of stdout),
// `person` opens it, as a browser would. Shared by the interoperability
// tests against real authorization servers, and the calls a run then makes
// through those servers' MCP servers.
import { spawn } from "node:child_process";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterEach, expect } from "vitest";
import { stepgateBin } from "../support/paths.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";
import type { SuppliersStepfile } from "./setup.js";

export interface AuthResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The NAME=value lines printed after the URL. */
  vars: Record<string, string>;
  /** The authorization URL the CLI printed. */
  url: URL | undefined;
}

export function runAuth(setup: SuppliersStepfile, person: (url: string) => Promise<unknown>, extra: string[] = [], env: Record<string, string> = {}): Promise<AuthResult> {
  const child = spawn(process.execPath, [stepgateBin(), "--auth", setup.stepfile, "suppliers", "--request-timeout-ms", "10000", ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  let url: URL | undefined;
  let approving: Promise<unknown> = Promise.resolve();
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    const first = stdout.split("\n")[0];
    if (url === undefined && stdout.includes("\n") && first) {
      url = new URL(first);
      approving = person(first).catch((error: Error) => (stderr += `\n[test] the person failed: ${error.message}`));
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      void approving.then(() => {
        const vars = Object.fromEntries(stdout.split("\n").slice(1).filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
        resolve({ code, stdout, stderr, vars, url });
      });
    }),
  );
}

type Structured = { run?: string; state?: string; error?: string; item?: string };
export const structured = (r: CallToolResult) => (r.structuredContent ?? {}) as Structured;
export const text = (r: CallToolResult) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");

export function serveSuppliers(setup: SuppliersStepfile, env: Record<string, string>, extra: string[] = []): Promise<SpawnedStepgate> {
  return spawnStepgate(["--ledger-dir", setup.ledgerDir, "--request-timeout-ms", "10000", ...extra, setup.stepfile], env);
}

export async function startSuppliers(s: SpawnedStepgate): Promise<CallToolResult> {
  return (await s.client.callTool({ name: "suppliers", arguments: {} })) as CallToolResult;
}

export async function lookup(s: SpawnedStepgate, run: string): Promise<CallToolResult> {
  return (await s.client.callTool({ name: "stepgate_call", arguments: { run, operation: "lookup", arguments: { query: "Acme" } } })) as CallToolResult;
}

/** Start a run and make `calls` lookups; every one must reach the MCP server with an accepted token. */
export async function runLookups(s: SpawnedStepgate, calls: number): Promise<CallToolResult[]> {
  const started = await startSuppliers(s);
  expect(structured(started).state, text(started)).toBe("running");
  const replies = [started];
  for (let i = 0; i < calls; i++) {
    const reply = await lookup(s, structured(started).run!);
    expect(reply.isError ?? false, text(reply)).toBe(false);
    expect(text(reply)).toContain("based in Leeds");
    replies.push(reply);
  }
  return replies;
}

/** None of `secrets` appears in `haystack`. */
export function expectNone(haystack: string, secrets: readonly string[]): void {
  for (const secret of secrets) expect(haystack.includes(secret), `a secret (${secret.slice(0, 4)}...) leaked`).toBe(false);
}

/** After each test, closes what it left open, in order (the served Stepgate before its world), then forgets them. */
export function closeAfterEach(open: () => ReadonlyArray<{ close(): Promise<unknown> } | undefined>, forget: () => void): void {
  afterEach(async () => {
    for (const held of open()) await held?.close();
    forget();
  });
}
