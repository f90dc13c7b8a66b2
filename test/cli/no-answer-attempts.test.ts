// A call that got no answer at all after the seed's retries (a dropped
// connection, a missed deadline) says how many attempts were sent, in the
// words of src/attempts.ts, for an agent's stepgate_call and for a
// mechanical step's ToolCallFailed alike; a POST, not retried, fails once
// and names no count. Served by the built CLI over stdio against a loopback
// API: each retried path answers 503 with Retry-After: 0 (the seed's retries
// without their backoff waits) until its last attempt, which it drops or
// leaves unanswered.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTEMPTS } from "../../src/egress/retry-policy.js";
import { budget } from "../support/budget.js";
import { listenLoopback, type Listening } from "../support/listen.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const TIMEOUT_MS = 1000;
const AFTER = `, after ${MAX_ATTEMPTS} attempts`;

let server: Listening;
const requests = new Map<string, number>();
let dir: string;

/** The last attempt meets `last`; the ones before it a 503 that asks for no wait. */
function failsLast(last: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse, n: number) => (n < MAX_ATTEMPTS ? res.writeHead(503, { "retry-after": "0" }).end() : last(req, res));
}
const drop = (req: IncomingMessage) => req.socket.destroy();
const paths: Record<string, (req: IncomingMessage, res: ServerResponse, n: number) => void> = {
  "/agent-drop": failsLast(drop),
  "/agent-silent": failsLast(() => undefined),
  "/agent-post": drop,
  "/mechanical-drop": failsLast(drop),
  "/mechanical-post": drop,
};

function operation(path: string, method: "get" | "post", id: string) {
  return { [path]: { [method]: { operationId: id, responses: { "200": { description: "ok" } } } } };
}

function tool(port: number, ops: Record<string, unknown>, exposes: string[]) {
  const document = { openapi: "3.1.0", info: { title: "api", version: "1" }, paths: ops };
  return `  api:
    openapi:
      server: http://127.0.0.1:${port}
      document: ${JSON.stringify(document)}
    exposes: [${exposes.join(", ")}]`;
}

function mechanical(id: string, port: number, path: string, method: "get" | "post", op: string) {
  return `stepgate: "1"
id: ${id}
inputs: { type: object }
tools:
${tool(port, operation(path, method, op), [op])}
steps:
  - id: read
    do:
      calls:
        - { id: call, operation: ${op}, arguments: {} }
      output: { done: true }
    produces: { type: object }
`;
}

beforeAll(async () => {
  server = await listenLoopback(
    createServer((req, res) => {
      const path = req.url ?? "";
      const n = (requests.get(path) ?? 0) + 1;
      requests.set(path, n);
      (paths[path] ?? ((_q, s) => s.writeHead(404).end()))(req, res, n);
    }),
  );
  const { port } = server;
  dir = mkdtempSync(join(tmpdir(), "stepgate-no-answer-"));
  writeFileSync(
    join(dir, "agent.stepfile.yaml"),
    `stepgate: "1"
id: agent-calls
inputs: { type: object }
tools:
${tool(port, { ...operation("/agent-drop", "get", "dropStatus"), ...operation("/agent-silent", "get", "silentStatus"), ...operation("/agent-post", "post", "createOrder") }, ["dropStatus", "silentStatus", "createOrder"])}
steps:
  - id: read
    tools: [dropStatus, silentStatus, createOrder]
    instructions: Read the status.
    produces: { type: object }
    gates:
      - { id: called, predicate: { ">": [{ length: { var: calls } }, 0] }, message: Call an operation first. }
`,
  );
  writeFileSync(join(dir, "mechanical-get.stepfile.yaml"), mechanical("mechanical-get", port, "/mechanical-drop", "get", "readStatus"));
  writeFileSync(join(dir, "mechanical-post.stepfile.yaml"), mechanical("mechanical-post", port, "/mechanical-post", "post", "createOrder"));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(files: string[]): Promise<SpawnedStepgate> {
  return spawnStepgate(["--request-timeout-ms", String(TIMEOUT_MS), ...files.map((f) => join(dir, f))]);
}

function textOf(reply: { content?: unknown }): string {
  return (reply.content as Array<{ text: string }>)[0]!.text;
}

describe("a call that got no answer after the retries", () => {
  it(
    "is an agent's error result naming the attempts of a GET, and none for a POST sent once",
    async () => {
      const stepgate = await serve(["agent.stepfile.yaml"]);
      try {
        const start = await stepgate.client.callTool({ name: "agent-calls", arguments: {} });
        const run = (start.structuredContent as { run: string }).run;
        const call = async (operation: string) => {
          const reply = await stepgate.client.callTool({ name: "stepgate_call", arguments: { run, operation, arguments: {} } });
          return { isError: reply.isError, text: textOf(reply), state: (reply.structuredContent as { state: string }).state };
        };

        const dropped = await call("dropStatus");
        expect(dropped).toMatchObject({ isError: true, state: "running" });
        expect(dropped.text).toMatch(new RegExp(`^dropStatus failed: network error: .+${AFTER}$`));
        expect(requests.get("/agent-drop")).toBe(MAX_ATTEMPTS);

        expect(await call("silentStatus")).toEqual({ isError: true, state: "running", text: `silentStatus failed: no complete response within ${TIMEOUT_MS} ms${AFTER}` });
        expect(requests.get("/agent-silent")).toBe(MAX_ATTEMPTS);

        const post = await call("createOrder");
        expect(post).toMatchObject({ isError: true, state: "running" });
        expect(post.text).toMatch(/^createOrder failed: network error: /);
        expect(post.text).not.toMatch(/attempt/);
        expect(requests.get("/agent-post")).toBe(1);
      } finally {
        await stepgate.close();
      }
    },
    budget({ starts: 1, replies: 4 }),
  );

  it(
    "ends a mechanical step's run with ToolCallFailed naming the step, the call and the attempts of a GET, and no count for a POST sent once",
    async () => {
      const stepgate = await serve(["mechanical-get.stepfile.yaml", "mechanical-post.stepfile.yaml"]);
      try {
        const get = await stepgate.client.callTool({ name: "mechanical-get", arguments: {} });
        expect(get.isError).toBe(true);
        expect(get.structuredContent).toMatchObject({ state: "failed", error: "ToolCallFailed", details: { status: null, reason: expect.stringMatching(new RegExp(`${AFTER}$`)) } });
        // Named as a mechanical call's error answer is: by step and call, the operation in brackets.
        expect(textOf(get)).toMatch(new RegExp(`^ToolCallFailed: step read, call call \\(readStatus\\) failed: network error: .+${AFTER}$`));
        expect(requests.get("/mechanical-drop")).toBe(MAX_ATTEMPTS);

        const post = await stepgate.client.callTool({ name: "mechanical-post", arguments: {} });
        expect(post.structuredContent).toMatchObject({ state: "failed", error: "ToolCallFailed", details: { status: null } });
        expect(textOf(post)).toMatch(/^ToolCallFailed: step read, call call \(createOrder\) failed: network error: /);
        expect(textOf(post)).not.toMatch(/attempt/);
        expect(requests.get("/mechanical-post")).toBe(1);
      } finally {
        await stepgate.close();
      }
    },
    budget({ starts: 1, replies: 2 }),
  );
});
