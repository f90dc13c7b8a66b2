// Drives one run of a stepfile through the built CLI over stdio, as a client
// would, and hands back its replies, ledger records and stderr. Tests in this
// folder need what conformance cases cannot say: environment settings, extra
// CLI options, servers that echo or inspect what they were sent.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { flattenHeaders, type ReceivedRequest } from "../support/api-fixture.js";
import { REPLY_MS } from "../support/budget.js";
import { listenLoopback, readBody, type Listening } from "../support/listen.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

export interface Structured {
  run?: string;
  state?: string;
  error?: string;
  item?: string;
  step?: { step?: string; operations?: Array<{ name: string; arguments: Record<string, unknown> }> };
  failures?: Array<{ gate: string; diagnosis: string }>;
  [key: string]: unknown;
}

export interface LedgerRecord {
  type: string;
  [key: string]: unknown;
}

export interface CliRun {
  stepgate: SpawnedStepgate;
  /** The reply that started the run. */
  first: CallToolResult;
  call(operation: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  submit(output: unknown): Promise<CallToolResult>;
  /** Closes the CLI first so every record is flushed, then reads the run's ledger file. */
  finish(): Promise<{ ledger: LedgerRecord[]; ledgerText: string; stderr: string }>;
}

const cleanups: Array<() => Promise<void>> = [];

/** Stops every CLI and removes every temp dir this file's tests started; call from afterEach. */
export async function cleanUp(): Promise<void> {
  await Promise.all(cleanups.splice(0).map((c) => c().catch(() => undefined)));
}

export async function startRun(
  stepfile: Record<string, unknown>,
  inputs: Record<string, unknown>,
  options: { env?: Record<string, string>; args?: string[] } = {},
): Promise<CliRun> {
  const dir = await mkdtemp(join(tmpdir(), "stepgate-tools-"));
  const id = String(stepfile.id);
  const file = join(dir, `${id}.stepfile.json`);
  await writeFile(file, JSON.stringify(stepfile, null, 2));
  const ledgerDir = join(dir, "ledger");
  const stepgate = await spawnStepgate(["--ledger-dir", ledgerDir, ...(options.args ?? []), file], options.env ?? {});
  cleanups.push(async () => {
    await stepgate.close();
    await rm(dir, { recursive: true, force: true });
  });
  const callTool = async (name: string, args: Record<string, unknown>) => (await stepgate.client.callTool({ name, arguments: args }, { timeout: REPLY_MS })) as CallToolResult;
  const first = await callTool(id, inputs);
  const run = structured(first).run;
  return {
    stepgate,
    first,
    call: (operation, args = {}) => callTool("stepgate_call", { run, operation, arguments: args }),
    submit: (output) => callTool("stepgate_submit", { run, output }),
    async finish() {
      await stepgate.close();
      const files = (await readdir(ledgerDir).catch(() => [] as string[])).filter((f) => f.startsWith(`${id}-`));
      const ledgerText = files.length === 1 ? await readFile(join(ledgerDir, files[0]!), "utf8") : "";
      const ledger = ledgerText
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as LedgerRecord);
      return { ledger, ledgerText, stderr: stepgate.stderr() };
    },
  };
}

export function structured(result: CallToolResult): Structured {
  return (result.structuredContent ?? {}) as Structured;
}

export function text(result: CallToolResult): string {
  return result.content
    .filter((b): b is { type: "text"; text: string } => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

export interface TestServer extends Listening {
  received: ReceivedRequest[];
}

/** A loopback HTTP server answering with `handle`; every request is recorded first. */
export async function serve(handle: (req: IncomingMessage, body: string, res: ServerResponse) => unknown): Promise<TestServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = (await readBody(req)).toString("utf8");
      received.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: flattenHeaders(req), body });
      await handle(req, body, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  const listening = await listenLoopback(server);
  cleanups.push(listening.close);
  return { ...listening, received };
}

/** What kind of MCP message a request body holds: its JSON-RPC method, or "other". */
export function mcpMethod(body: string): string {
  try {
    const method = (JSON.parse(body) as { method?: unknown }).method;
    return typeof method === "string" ? method : "other";
  } catch {
    return "other";
  }
}

/**
 * A loopback server in front of `origin` (an MCP fixture) that forwards every
 * request unless `intercept` answers it first (returns true), so a test can
 * make one kind of MCP message fail without touching the real server.
 */
export async function proxyTo(origin: string, intercept: (req: IncomingMessage, body: string, res: ServerResponse) => boolean): Promise<TestServer> {
  return serve(async (req, body, res) => {
    if (intercept(req, body, res)) return;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !["host", "content-length", "connection"].includes(name)) as Array<[string, string]>);
    const answer = await fetch(`${origin}${req.url ?? "/"}`, { method: req.method ?? "POST", headers, ...(body ? { body } : {}) });
    const back: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive"].includes(name)) back[name] = value;
    });
    res.writeHead(answer.status, back).end(Buffer.from(await answer.arrayBuffer()));
  });
}

// The egress tests' JSON answer, shared so both folders' servers answer alike.
export { json } from "../egress/loopback.js";

/** A one-step stepfile around `tools`, whose step may call `operations` and whose gates are `gates`. */
export function oneStep(id: string, extra: Record<string, unknown>, step: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    stepgate: "1",
    id,
    inputs: { type: "object", properties: {} },
    ...extra,
    steps: [{ id: "work", instructions: "Do the work.", produces: { type: "object" }, gates: [{ id: "any", schema: { type: "object" } }], ...step }],
  };
}
