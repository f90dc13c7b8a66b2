// server/discover answered before the stepfiles are loaded (src/stdio/early.ts),
// through the built CLI. The load is held on purpose: the served Arazzo
// document's source description is fetched at load from a loopback HTTPS
// server (test/support/https-fixture.ts) that answers only when the test
// releases it, so what arrives while it is held arrived before the load
// finished, with no timing in the test. The SDK's client pinned to 2026-07-28
// probes with server/discover on a process of its own, which it stops
// (stdin end, SIGTERM) before it spawns the session's: that process must
// answer without its load, and end at once when stopped.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { budget, PROCESS_START_MS, REPLY_MS } from "../support/budget.js";
import { namedHostEnv, serveHttps, type HttpsFixture } from "../support/https-fixture.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-discover-early-"));
const greet = resolve(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml");
const source = readFileSync(resolve(REPO_ROOT, "test", "arazzo", "fixtures", "store.openapi.json"));
const env = { ...namedHostEnv({ "api.example.test": ["127.0.0.1"] }) };
const closing: Array<() => Promise<void>> = [];

/** What the source's server does with each request, in order; requests past the list are answered at once. */
let plan: Array<(res: ServerResponse) => void> = [];
let api: HttpsFixture;
let document: string;

beforeAll(async () => {
  api = await serveHttps((_req, res) => {
    const next = plan.shift();
    if (next) next(res);
    else res.writeHead(200, { "content-type": "application/json" }).end(source);
  });
  document = join(dir, "held.arazzo.yaml");
  writeFileSync(
    document,
    `arazzo: 1.1.0
info: { title: Held source, version: 1.0.0 }
sourceDescriptions:
  - { name: store, url: "https://api.example.test:${api.port}/openapi.json", type: openapi }
workflows:
  - workflowId: readOne
    steps:
      - stepId: read
        operationId: getOrder
        parameters:
          - { name: orderId, in: path, value: ord-1 }
`,
  );
});

afterAll(async () => {
  await Promise.all(closing.map((close) => close().catch(() => undefined)));
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The next request for the source, held until release() answers it with `status`. */
function holdNext(): { requested: Promise<void>; release(status?: number): void } {
  let held: ServerResponse | undefined;
  let requested!: () => void;
  const promise = new Promise<void>((resolve) => (requested = resolve));
  plan.push((res) => {
    held = res;
    requested();
  });
  return {
    requested: promise,
    release: (status = 200) => void (status === 200 ? held?.writeHead(200, { "content-type": "application/json" }).end(source) : held?.writeHead(status).end("no")),
  };
}

const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "early", version: "0" } };
const modern = (id: number, method: string) => `${JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: envelope } })}\n`;

/** The built CLI serving the held document (and `extra`) over stdio, on pipes the test writes and reads itself. */
function serve(extra: string[] = []) {
  const child = spawn(process.execPath, [stepgateBin(), "--ledger-dir", join(dir, "ledger"), "--allow-private-host", "api.example.test", document, ...extra], { env: { ...cliEnvironment(), ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  let out = "";
  let err = "";
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  child.stdout.on("data", (d) => {
    out += String(d);
    lines.splice(0, lines.length, ...out.split("\n").filter((l) => l !== ""));
    for (const w of waiting.filter((w) => lines.length >= w.count)) w.resolve();
  });
  child.stderr.on("data", (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    /** Settles once `count` lines were written, or when the process exits before. */
    linesWritten: (count: number) => Promise.race([new Promise<void>((resolve) => (lines.length >= count ? resolve() : waiting.push({ count, resolve }))), exited.then(() => undefined)]),
  };
}

/**
 * Releases the held source once the discover answer is out, or, should it
 * never come while the load is held (the behaviour before), after a while,
 * so the test fails on what arrived in which order instead of hanging.
 */
async function releaseAfterDiscover(cli: ReturnType<typeof serve>, held: ReturnType<typeof holdNext>, order: string[], status?: number) {
  await held.requested;
  const guard = new Promise<void>((resolve) => setTimeout(resolve, REPLY_MS / 3).unref());
  await Promise.race([cli.linesWritten(1).then(() => void order.push(`answered ${cli.lines.length}`)), guard]);
  order.push("released");
  held.release(status);
}

const discoverLine = (line: string | undefined) => JSON.parse(line ?? "null") as { id: number; result: { supportedVersions: string[] } };

/**
 * Node flags that hold the loading of the serving code (the serve chunk,
 * imported by main once the options are parsed) until `gate` exists: a
 * module hook gives each serve chunk a top-level await on the gate, so the
 * chunk's import does not settle while stdin is read on the main thread
 * (and writes `<gate>.held` when it starts waiting, so a test can tell the
 * hold took place).
 * Why not wait in the hook itself: from Node 24 the main thread blocks
 * while a hook on Node's loader thread is pending, and nothing is read.
 */
function holdingServeChunk(gate: string): string[] {
  const hook = join(dir, "hold-serve-hook.mjs");
  writeFileSync(
    hook,
    `export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (!/\\/dist\\/chunks\\/serve-[^/]*\\.js$/.test(url)) return loaded;
  const gate = ${JSON.stringify(gate)};
  const held = 'import { existsSync as gateExists, writeFileSync as markHeld } from "node:fs";\\nmarkHeld(' + JSON.stringify(gate + ".held") + ', "");\\nwhile (!gateExists(' + JSON.stringify(gate) + ")) await new Promise((resolve) => setTimeout(resolve, 10));\\n";
  return { ...loaded, source: held + String(loaded.source) };
}
`,
  );
  const register = join(dir, "hold-serve-register.mjs");
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
  return ["--import", pathToFileURL(register).href];
}

describe("server/discover over stdio, before the serving code is loaded", () => {
  it(
    "answers server/discover while the serve chunk has not loaded yet (a probe process is stopped as soon as it has the answer)",
    async () => {
      const gate = join(dir, "serve-chunk-may-load");
      const child = spawn(process.execPath, [...holdingServeChunk(gate), stepgateBin(), "--ledger-dir", join(dir, "ledger"), greet], { env: cliEnvironment(), stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      const firstLine = new Promise<void>((resolve) => child.stdout.on("data", (d) => ((out += String(d)), out.includes("\n") && resolve())));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      child.stdin.write(modern(1, "server/discover"));
      const order: string[] = [];
      // Should the answer never come while the chunk is held (the behaviour before), the gate opens after a while, so the test fails on the order instead of hanging.
      const guard = new Promise<void>((resolve) => setTimeout(resolve, REPLY_MS / 3).unref());
      await Promise.race([firstLine.then(() => void order.push("answered")), guard]);
      expect(existsSync(gate)).toBe(false);
      // The serve chunk is held (its code waits on the gate), and nothing but the discover answer has been written.
      await vi.waitFor(() => expect(existsSync(`${gate}.held`)).toBe(true), { timeout: REPLY_MS / 3, interval: 10 });
      expect(out.split("\n").filter(Boolean)).toHaveLength(1);
      writeFileSync(gate, "");
      order.push("released");
      expect(order).toEqual(["answered", "released"]);
      expect(discoverLine(out.split("\n")[0])).toMatchObject({ id: 1, result: { supportedVersions: ["2026-07-28"] } });
      // Then it serves as before: the tools/list on the same pipe is answered once the stepfile is loaded.
      child.stdin.write(modern(2, "tools/list"));
      await new Promise<void>((resolve) => child.stdout.on("data", () => out.split("\n").filter(Boolean).length >= 2 && resolve()));
      expect((JSON.parse(out.split("\n")[1]!) as { id: number; result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name)).toContain("greet");
      child.stdin.end();
      expect(await exited).toBe(0);
    },
    budget({ starts: 1, replies: 2 }),
  );
});

describe("server/discover over stdio, before the stepfiles are loaded", () => {
  it(
    "answers server/discover while the load is held, then a tools/list on the same pipe once it is loaded",
    async () => {
      const held = holdNext();
      const cli = serve();
      const order: string[] = [];
      cli.child.stdin.write(modern(1, "server/discover") + modern(2, "tools/list"));
      await releaseAfterDiscover(cli, held, order);
      // One answer, the discover's, while the load was held: the tools/list waited for it.
      expect(order).toEqual(["answered 1", "released"]);
      expect(discoverLine(cli.lines[0])).toMatchObject({ id: 1, result: { supportedVersions: ["2026-07-28"] } });
      await cli.linesWritten(2);
      const listed = JSON.parse(cli.lines[1]!) as { id: number; result: { tools: Array<{ name: string }> } };
      expect(listed.id).toBe(2);
      expect(listed.result.tools.map((t) => t.name)).toContain("read-one");
      cli.child.stdin.end();
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(cli.lines).toHaveLength(2);
    },
    budget({ starts: 1, replies: 3 }),
  );

  it(
    "still refuses a stepfile that fails to load after server/discover was answered: exit 1, the error on stderr, nothing more on stdout",
    async () => {
      const held = holdNext();
      const cli = serve();
      const order: string[] = [];
      cli.child.stdin.write(modern(1, "server/discover"));
      await releaseAfterDiscover(cli, held, order, 404);
      expect(order).toEqual(["answered 1", "released"]);
      expect(await cli.exited).toEqual({ code: 1, signal: null });
      expect(cli.stderr()).toContain("StepfileInvalid: ");
      expect(cli.stderr()).toContain("source store could not be fetched from https://api.example.test:");
      expect(cli.lines).toHaveLength(1);
      expect(discoverLine(cli.lines[0]).id).toBe(1);
    },
    budget({ starts: 1, replies: 2 }),
  );

  it(
    "ends at once when stopped as the SDK's client stops its probe (stdin end, SIGTERM) while the load is still held, having written only the discover answer",
    async () => {
      // Every request held (a timed-out fetch is tried again): the load cannot finish in this test.
      const held = holdNext();
      plan.push(...Array.from({ length: 8 }, () => () => undefined));
      const cli = serve();
      cli.child.stdin.write(modern(1, "server/discover"));
      await held.requested;
      await cli.linesWritten(1);
      cli.child.stdin.end();
      cli.child.kill("SIGTERM");
      // The source is never released: exiting at all shows the process did not wait for its load.
      expect(await cli.exited).toEqual({ code: null, signal: "SIGTERM" });
      expect(cli.lines).toHaveLength(1);
      expect(discoverLine(cli.lines[0]).id).toBe(1);
      expect(cli.stderr()).toBe("");
      plan = [];
    },
    budget({ starts: 1, replies: 2 }),
  );

  it(
    "serves the SDK's client pinned to 2026-07-28 although its probe process's load never finishes: tools/list and a run on the session's process",
    async () => {
      // Every request for the source before the session's process starts (the probe's, if its load gets that far before it is stopped) is held for good.
      let sessionStarted = false;
      const neverAnswered: ServerResponse[] = [];
      plan = [(res) => void (sessionStarted ? res.writeHead(200, { "content-type": "application/json" }).end(source) : neverAnswered.push(res))];
      plan.push(...Array.from({ length: 8 }, () => plan[0]!));
      const transport = new StdioClientTransport({ command: process.execPath, args: [stepgateBin(), "--ledger-dir", join(dir, "ledger"), "--allow-private-host", "api.example.test", document, greet], env: { ...cliEnvironment(), ...env }, stderr: "pipe" });
      const start = transport.start.bind(transport);
      transport.start = () => {
        sessionStarted = true;
        return start();
      };
      const client = new Client({ name: "stepgate-tests", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      closing.push(() => client.close());
      await client.connect(transport, { timeout: PROCESS_START_MS });
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read-one", "greet"]));
      const run = await client.callTool({ name: "greet", arguments: { name: "Ada" } }, { timeout: REPLY_MS });
      expect(run.structuredContent).toMatchObject({ state: "running", step: { step: "hello", instructions: "Greet Ada." } });
      plan = [];
    },
    budget({ starts: 2, replies: 4 }),
  );
});
