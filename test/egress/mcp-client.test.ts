// egressFetch under the real MCP SDK client, against a real SDK server on
// loopback: the transport works through it, and the host rule still holds.
import { serve } from "@hono/node-server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CredentialRef, egressFetch } from "../../src/egress/index.js";
import { testPolicy } from "./loopback.js";

let origin = "";
let host = "";
const seen: { authorization: string | null; userAgent: string | null }[] = [];
let close: () => void = () => undefined;

beforeAll(async () => {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "echo", version: "1.0.0" });
    server.registerTool("hello", { description: "says hello" }, () => ({ content: [{ type: "text", text: "hello" }] }));
    return server;
  });
  const http = serve({
    fetch: (request: Request) => {
      seen.push({ authorization: request.headers.get("authorization"), userAgent: request.headers.get("user-agent") });
      return handler.fetch(request);
    },
    hostname: "127.0.0.1",
    port: 0,
  });
  await new Promise<void>((resolve) => http.once("listening", () => resolve()));
  const { port } = http.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  close = () => http.close();
});
afterAll(() => close());

describe("egressFetch with the MCP SDK client", () => {
  it("lists and calls tools with the credential and User-Agent on every request", async () => {
    const credential: CredentialRef = { name: "remote", kind: "bearer", hosts: [host], placement: { in: "bearer" } };
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { fetch: egressFetch(testPolicy([host], { env: { REMOTE_API_KEY: "tok" } }), credential) });
    const client = new Client({ name: "stepgate-test", version: "0.0.0" });
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["hello"]);
    const result = await client.callTool({ name: "hello", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
    await client.close();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.authorization === "Bearer tok" && s.userAgent?.startsWith("stepgate/"))).toBe(true);
  });

  it("cannot reach an MCP server whose host no tool declares", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { fetch: egressFetch(testPolicy(["127.0.0.1:1"])) });
    const client = new Client({ name: "stepgate-test", version: "0.0.0" });
    const before = seen.length;
    await expect(client.connect(transport)).rejects.toThrow(/refused/);
    expect(seen.length).toBe(before);
  });
});
