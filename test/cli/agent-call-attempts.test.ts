// An agent's stepgate_call whose API keeps answering an error after the
// seed's retries says how many attempts were made, in the words a
// mechanical step's ToolCallFailed uses (src/attempts.ts): served by
// the built CLI over stdio against a loopback API answering 500, then 404.
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { listenLoopback, type Listening } from "../support/listen.js";
import { spawnStepgate } from "../support/stepgate.js";

let server: Listening;
let status = 500;
let requests = 0;
let dir: string;

beforeAll(async () => {
  // Retry-After: 0 keeps the seed's retries without its backoff waits.
  server = await listenLoopback(
    createServer((_req, res) => {
      requests++;
      res.writeHead(status, { "content-type": "application/json", "retry-after": "0" });
      res.end(JSON.stringify({ error: "down" }));
    }),
  );
  dir = mkdtempSync(join(tmpdir(), "stepgate-agent-500-"));
  writeFileSync(
    join(dir, "status.stepfile.yaml"),
    `stepgate: "1"
id: read-status
inputs: { type: object }
tools:
  status:
    openapi:
      server: ${server.origin}
      document: { openapi: 3.1.0, info: { title: status, version: "1" }, paths: { /status: { get: { operationId: getStatus, responses: { "200": { description: ok } } } } } }
    exposes: [getStatus]
steps:
  - id: read
    tools: [getStatus]
    instructions: Read the status.
    produces: { type: object }
    gates:
      - { id: read-once, predicate: { ">": [{ length: { var: calls } }, 0] }, message: Call getStatus first. }
`,
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an agent's call whose API keeps answering an error", () => {
  it(
    "is an error result naming the status and the attempts made; an error sent once (a 404, not retried) names no count",
    async () => {
      const stepgate = await spawnStepgate([join(dir, "status.stepfile.yaml")]);
      try {
        const start = await stepgate.client.callTool({ name: "read-status", arguments: {} });
        const run = (start.structuredContent as { run: string }).run;
        const call = async () => {
          const reply = await stepgate.client.callTool({ name: "stepgate_call", arguments: { run, operation: "getStatus", arguments: {} } });
          return { isError: reply.isError, text: (reply.content as Array<{ text: string }>)[0]!.text, structured: reply.structuredContent as { state: string; is_error: boolean; result: string } };
        };
        const failed = await call();
        expect(failed).toEqual({ isError: true, text: 'HTTP 500, after 5 attempts: {"error":"down"}', structured: expect.objectContaining({ state: "running", is_error: true, result: 'HTTP 500, after 5 attempts: {"error":"down"}' }) });
        expect(requests).toBe(5);
        status = 404;
        expect(await call()).toMatchObject({ isError: true, text: 'HTTP 404: {"error":"down"}' });
        expect(requests).toBe(6);
      } finally {
        await stepgate.close();
      }
    },
    budget({ starts: 1, replies: 3 }),
  );
});
