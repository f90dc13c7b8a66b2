// An Arazzo step's call that still fails after the seed's retries says how
// many attempts were made, as a pinned document's failed fetch does: served
// by the built CLI over stdio against a loopback API that always answers 500.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { stepgateBin } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";

let server: Server;
let requests = 0;
let dir: string;

beforeAll(async () => {
  // Retry-After: 0 keeps the seed's retries without its backoff waits.
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(500, { "content-type": "application/json", "retry-after": "0" });
    res.end(JSON.stringify({ error: "down" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const api = {
    openapi: "3.1.0",
    info: { title: "status", version: "1" },
    servers: [{ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }],
    paths: { "/status": { get: { operationId: "getStatus", responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } } } } },
  };
  dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-500-"));
  writeFileSync(join(dir, "status.openapi.json"), JSON.stringify(api));
  writeFileSync(
    join(dir, "status.arazzo.yaml"),
    `arazzo: 1.0.1
info: { title: status, version: "1" }
sourceDescriptions:
  - { name: status, url: ./status.openapi.json, type: openapi }
workflows:
  - workflowId: readStatus
    steps:
      - { stepId: read, operationId: getStatus }
`,
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("an Arazzo step whose call keeps answering 500", () => {
  it(
    "fails the run naming the status and the attempts made",
    async () => {
      const client = new Client({ name: "arazzo-500", version: "1.0.0" });
      const transport = new StdioClientTransport({ command: process.execPath, args: [stepgateBin(), join(dir, "status.arazzo.yaml")], env: cliEnvironment(), stderr: "pipe" });
      await client.connect(transport);
      try {
        const reply = await client.callTool({ name: "read-status", arguments: {} });
        const failed = reply.structuredContent as { state: string; error: string; message: string };
        expect(failed).toMatchObject({ state: "failed", error: "ToolCallFailed" });
        expect(failed.message).toBe('step read, call call (getStatus) failed: HTTP 500, after 5 attempts: {"error":"down"}');
        expect(requests).toBe(5);
      } finally {
        await client.close();
      }
    },
    budget({ starts: 1, replies: 1 }),
  );
});
