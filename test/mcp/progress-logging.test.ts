// Progress notifications and log messages, as a real client sees them: the
// SDK's own client against the built CLI over stdio and over --http, a
// mechanical step that calls a loopback API once for each of 10 items, and
// an operation whose server answers 503 every other time, so every call of
// it is retried once.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, LOG_LEVEL_META_KEY, type LoggingLevel, type LoggingMessageNotification, type Progress } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliServer, type CliServer } from "../http/fixtures/cli-server.js";
import { connectClient } from "../http/fixtures/harness.js";
import { budget, REPLY_MS } from "../support/budget.js";
import { listenLoopback, type Listening } from "../support/listen.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const ITEMS = Array.from({ length: 10 }, (_, i) => `K-${i + 1}`);
const SECRET = "s3cr3t-key-never-shown";

let api: Listening;
let flakyCalls = 0;
let dir: string;
let stepfile: string;

beforeAll(async () => {
  api = await listenLoopback(
    createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/items") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: url.searchParams.get("id") }));
      // Odd calls fail with a wait of 0 s, so each call of the operation is retried once, at once.
      if (url.pathname === "/flaky") {
        flakyCalls += 1;
        if (flakyCalls % 2 === 1) return void res.writeHead(503, { "retry-after": "0" }).end("busy");
        return void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      }
      res.writeHead(404).end();
    }),
  );
  dir = await mkdtemp(join(tmpdir(), "stepgate-progress-"));
  stepfile = join(dir, "shelf.stepfile.json");
  await writeFile(
    stepfile,
    JSON.stringify({
      stepgate: "1",
      id: "shelf",
      inputs: { type: "object", required: ["ids"], properties: { ids: { type: "array" } } },
      credentials: { catalogue: { kind: "bearer", hosts: [api.host], description: "A key the API never echoes." } },
      tools: {
        catalogue: {
          openapi: {
            server: api.origin,
            document: {
              openapi: "3.1.0",
              info: { title: "Catalogue", version: "1" },
              paths: {
                "/items": { get: { operationId: "getItem", parameters: [{ name: "id", in: "query", required: true, schema: { type: "string" } }] } },
                "/flaky": { get: { operationId: "flaky" } },
              },
            },
          },
          credential: "catalogue",
          exposes: ["getItem", "flaky"],
        },
      },
      steps: [
        {
          id: "fetch",
          do: { calls: [{ id: "item", operation: "getItem", each: { var: "inputs.ids" }, arguments: { id: { var: "item" } } }], output: { count: { length: { var: "responses.item" } } } },
          produces: { type: "object" },
        },
        { id: "check", instructions: "Call flaky, then submit {}.", tools: ["flaky"], produces: { type: "object" }, gates: [{ id: "any", schema: { type: "object" } }] },
      ],
    }),
  );
});

afterAll(async () => {
  await api?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What one client saw: its log messages, in order. */
function listen(client: Client): LoggingMessageNotification["params"][] {
  const messages: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler("notifications/message", (n) => void messages.push(n.params));
  return messages;
}

/**
 * How a client chooses the lowest level it hears: `logging/setLevel` for its
 * session on 2025-11-25; on 2026-07-28, which has no setLevel, a level in each
 * request's `_meta`. Returns what to add to the next request's params.
 */
type ChooseLevel = (level: LoggingLevel) => Promise<{ _meta?: Record<string, unknown> }>;
const setLevel = (client: Client): ChooseLevel => async (level) => (await client.setLoggingLevel(level), {});
const levelInMeta: ChooseLevel = async (level) => ({ _meta: { [LOG_LEVEL_META_KEY]: level } });

async function exercise(client: Client, messages: LoggingMessageNotification["params"][], chooseLevel: ChooseLevel): Promise<void> {
  const progress: Progress[] = [];
  const started = await client.callTool({ name: "shelf", arguments: { ids: ITEMS } }, { onprogress: (p) => void progress.push(p), timeout: REPLY_MS });
  const run = (started.structuredContent as { run: string; state: string }).run;
  expect(started.structuredContent).toMatchObject({ state: "running", step: { step: "check" } });

  // One notification per call of the each, n of 10, with the call id; after the preflight item.
  const calls = progress.filter((p) => p.message?.startsWith("step fetch: call item (getItem)"));
  expect(calls.map((p) => p.message)).toEqual(ITEMS.map((_, i) => `step fetch: call item (getItem) ${i + 1} of 10`));
  expect(progress[0]).toMatchObject({ progress: 1, total: 1, message: "preflight: tool catalogue ready (1 of 1)" });
  // MCP: progress grows with every notification, and never passes its total.
  for (let i = 1; i < progress.length; i += 1) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
  for (const p of progress) if (p.total !== undefined) expect(p.progress).toBeLessThanOrEqual(p.total);
  expect(progress.at(-1)).toMatchObject({ progress: 11, total: 11 });

  // A retry is progress too, with its wait, for a call that carries a token.
  const retried: Progress[] = [];
  const quiet = await client.callTool({ name: "stepgate_call", arguments: { run, operation: "flaky" }, ...(await chooseLevel("error")) }, { onprogress: (p) => void retried.push(p), timeout: REPLY_MS });
  expect(quiet.isError ?? false).toBe(false);
  expect(retried.map((p) => p.message)).toEqual(["flaky: HTTP 503; retry 1 in 0 ms"]);
  // Below the level the client set: no log message for that retry.
  expect(messages.filter((m) => String(m.data).includes("retry"))).toEqual([]);

  await client.callTool({ name: "stepgate_call", arguments: { run, operation: "flaky" }, ...(await chooseLevel("warning")) }, { timeout: REPLY_MS });
  expect(messages).toEqual([{ level: "warning", logger: "stepgate", data: "flaky: HTTP 503; retry 1 in 0 ms" }]);
  expect(JSON.stringify({ progress, retried, messages })).not.toContain(SECRET);
}

describe("progress and logging over stdio", () => {
  const started: SpawnedStepgate[] = [];
  afterAll(() => Promise.all(started.map((s) => s.close())));

  it(
    "a client with a progress token sees each call of a 10-item each; logging/setLevel filters log messages",
    async () => {
      const stepgate = await spawnStepgate(["--ledger-dir", join(dir, "stdio-ledger"), stepfile], { CATALOGUE_API_KEY: SECRET });
      started.push(stepgate);
      const messages = listen(stepgate.client);
      expect(stepgate.client.getServerCapabilities()?.logging).toEqual({});
      await exercise(stepgate.client, messages, setLevel(stepgate.client));
    },
    budget({ starts: 1, replies: 6 }),
  );

  it(
    "2026-07-28 (a client pinned to it, so no fallback): the same progress; the level in each request's _meta filters log messages",
    async () => {
      const stepgate = await spawnStepgate(["--ledger-dir", join(dir, "stdio-ledger"), stepfile], { CATALOGUE_API_KEY: SECRET }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      started.push(stepgate);
      expect(stepgate.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      await exercise(stepgate.client, listen(stepgate.client), levelInMeta);
    },
    budget({ starts: 1, replies: 6 }),
  );
});

describe("progress and logging over --http", () => {
  // One server for both protocol eras: each client has its own session (or none, on 2026-07-28).
  let server: CliServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await startCliServer(["--ledger-dir", join(dir, "http-ledger"), stepfile], { env: { CATALOGUE_API_KEY: SECRET } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
  });

  it.each([
    ["2025-11-25", "logging/setLevel", "legacy"],
    ["2026-07-28", "the level in each request's _meta", "modern"],
  ] as const)(
    "%s: a client with a progress token sees each call of a 10-item each; %s filters log messages",
    async (version, _howLevelIsSet, era) => {
      const client = await connectClient(server.url, era);
      clients.push(client);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      await exercise(client, listen(client), era === "legacy" ? setLevel(client) : levelInMeta);
    },
    budget({ replies: 6 }),
  );
});
