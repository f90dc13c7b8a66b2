// A 2026-07-28 client over stdio: it opens with server/discover, and the
// built CLI serves that revision on the pipe (no fallback to initialize), with
// a whole run through it: progress for a mechanical step's calls, a log
// message for a retried call, an approve gate answered through an
// input-required result, and the run's ledger as a resource. And what the
// revision does not have: messages outside a request.
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOG_LEVEL_META_KEY, type ClientOptions, type LoggingMessageNotification, type Progress } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget, REPLY_MS } from "../support/budget.js";
import { listenLoopback, type Listening } from "../support/listen.js";
import { REPO_ROOT } from "../support/paths.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

let api: Listening;
let flaky = 0;
let dir: string;
let stepfile: string;
const started: SpawnedStepgate[] = [];

beforeAll(async () => {
  api = await listenLoopback(
    createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/items") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: url.searchParams.get("id") }));
      // Every other call is refused once with a wait of 0 s: each call of the operation is retried once.
      if (url.pathname === "/flaky") return void ((flaky += 1) % 2 === 1 ? res.writeHead(503, { "retry-after": "0" }).end("busy") : res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
      res.writeHead(404).end();
    }),
  );
  dir = await mkdtemp(join(tmpdir(), "stepgate-stdio-2026-"));
  stepfile = join(dir, "review.stepfile.json");
  const document = {
    openapi: "3.1.0",
    info: { title: "Items", version: "1" },
    paths: {
      "/items": { get: { operationId: "getItem", parameters: [{ name: "id", in: "query", required: true, schema: { type: "string" } }] } },
      "/flaky": { get: { operationId: "flaky" } },
    },
  };
  await writeFile(
    stepfile,
    JSON.stringify({
      stepgate: "1",
      id: "review",
      inputs: { type: "object", required: ["ids"], properties: { ids: { type: "array" } } },
      tools: { items: { openapi: { server: api.origin, document }, exposes: ["getItem", "flaky"] } },
      steps: [
        { id: "fetch", do: { calls: [{ id: "item", operation: "getItem", each: { var: "inputs.ids" }, arguments: { id: { var: "item" } } }], output: { count: { length: { var: "responses.item" } } } }, produces: { type: "object" } },
        {
          id: "publish",
          instructions: "Call flaky, then submit a short note.",
          tools: ["flaky"],
          produces: { type: "object", required: ["note"], properties: { note: { type: "string" } } },
          gates: [{ id: "person", approve: { message: "Publish this note?" } }],
        },
      ],
    }),
  );
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
  await api?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A client that declares elicitation (so approve gates can ask) and approves; opening as `versionNegotiation` says. */
async function connect(mode: NonNullable<ClientOptions["versionNegotiation"]>["mode"]) {
  const asked: string[] = [];
  const stepgate = await spawnStepgate(["--ledger-dir", join(dir, "ledger"), stepfile], {}, { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } });
  started.push(stepgate);
  stepgate.client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(String((request.params as { message: string }).message));
    return { action: "accept", content: { approved: true } };
  });
  const messages: LoggingMessageNotification["params"][] = [];
  stepgate.client.setNotificationHandler("notifications/message", (n) => void messages.push(n.params));
  return { client: stepgate.client, asked, messages };
}

describe("a 2026-07-28 client over stdio", () => {
  it.each([
    ["pinned to 2026-07-28, which allows no fallback", { pin: "2026-07-28" }],
    ["in auto mode, whose server/discover probe succeeds", "auto"],
  ] as const)(
    "%s: connects and drives a whole run with progress, a log message and an approve gate",
    async (_how, mode) => {
      const { client, asked, messages } = await connect(mode);
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("review");

      const progress: Progress[] = [];
      const start = await client.callTool({ name: "review", arguments: { ids: ["a", "b", "c"] } }, { onprogress: (p) => void progress.push(p), timeout: REPLY_MS });
      expect(start.structuredContent).toMatchObject({ state: "running", step: { step: "publish" } });
      const run = (start.structuredContent as { run: string }).run;
      expect(progress.map((p) => p.message).filter((m) => m?.startsWith("step fetch"))).toEqual([1, 2, 3].map((n) => `step fetch: call item (getItem) ${n} of 3`));

      const call = await client.callTool({ name: "stepgate_call", arguments: { run, operation: "flaky" }, _meta: { [LOG_LEVEL_META_KEY]: "warning" } }, { timeout: REPLY_MS });
      expect(call.isError ?? false).toBe(false);
      expect(messages).toEqual([{ level: "warning", logger: "stepgate", data: "flaky: HTTP 503; retry 1 in 0 ms" }]);

      // The client asks the person between two tools/call requests (input-required), then repeats the call.
      const done = await client.callTool({ name: "stepgate_submit", arguments: { run, output: { note: "ship it" } } }, { timeout: REPLY_MS });
      expect(done.structuredContent).toMatchObject({ state: "finished", outputs: { publish: { note: "ship it" } } });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("Publish this note?");

      const file = (await readdir(join(dir, "ledger"))).find((f) => f.endsWith(`${run}.jsonl`))!;
      const written = await readFile(join(dir, "ledger", file), "utf8");
      const records = written.trim().split("\n").map((l) => JSON.parse(l) as { type: string; gate?: string; verdict?: string });
      expect(records.filter((r) => r.type === "gate").map((r) => `${r.gate} ${r.verdict}`)).toEqual(["person pass"]);
      expect(records.at(-1)!.type).toBe("run_finished");
      // One client per pipe: its own runs are listed, and read as written.
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain(`stepgate://runs/${run}/ledger`);
      const read = await client.readResource({ uri: `stepgate://runs/${run}/ledger` });
      expect((read.contents[0] as { text: string }).text).toBe(written);
    },
    budget({ starts: 2, replies: 8 }),
  );
});

describe("messages outside a request over stdio", () => {
  it(
    "a run abandoned while idle is a log message to a 2025 client; 2026-07-28 has no unprompted messages, so none is sent",
    async () => {
      const heard: Record<string, unknown[]> = {};
      for (const [era, mode] of [
        ["2025-11-25", "legacy"],
        ["2026-07-28", { pin: "2026-07-28" }],
      ] as const) {
        const stepgate = await spawnStepgate(["--ledger-dir", join(dir, "ledger"), "--run-idle-ms", "300", join(REPO_ROOT, "test", "fixtures", "greet.stepfile.yaml")], {}, { versionNegotiation: { mode } });
        started.push(stepgate);
        const messages: unknown[] = (heard[era] = []);
        stepgate.client.setNotificationHandler("notifications/message", (n) => void messages.push(n.params));
        const start = await stepgate.client.callTool({ name: "greet", arguments: { name: "Ada" } });
        expect(start.structuredContent).toMatchObject({ state: "running" });
        // Well past --run-idle-ms; a request afterwards shows the pipe carried everything sent before it.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await stepgate.client.listTools();
      }
      expect(heard["2025-11-25"]).toEqual([expect.objectContaining({ level: "warning", data: expect.stringContaining("abandoned: nobody called it for --run-idle-ms") })]);
      expect(heard["2026-07-28"]).toEqual([]);
    },
    budget({ starts: 2, replies: 6 }),
  );
});
