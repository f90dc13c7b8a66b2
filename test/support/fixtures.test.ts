// The fixtures are test infrastructure other tests trust, so they get their
// own check: a fixture that answered wrongly would make every case lie.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { startApiFixture } from "./api-fixture.js";
import { startMcpFixture } from "./mcp-fixture.js";

describe("startApiFixture", () => {
  it("answers routes in order, repeats the last answer, guards keys and records requests", async () => {
    const api = await startApiFixture([
      { method: "GET", path: "/items?shelf=A", answers: [{ status: 503, text: "busy" }, { json: { ok: true } }] },
      { method: "GET", path: "/moved", answers: [{ status: 302, headers: { Location: "{origin}/items" } }] },
      { method: "GET", path: "/secret", bearer: "t-1", answers: [{ json: { ok: 1 } }] },
      { method: "GET", path: "/big", answers: [{ json_bytes: 100 }] },
    ]);
    try {
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.origin}${path}`, { headers, redirect: "manual" });
      const first = await get("/items?shelf=A");
      expect([first.status, await first.text(), first.headers.get("content-type")]).toEqual([503, "busy", "text/plain; charset=utf-8"]);
      expect(await (await get("/items?shelf=A")).json()).toEqual({ ok: true });
      expect(await (await get("/items?shelf=A")).json()).toEqual({ ok: true });
      expect((await get("/moved")).headers.get("location")).toBe(`${api.origin}/items`);
      expect((await get("/secret")).status).toBe(401);
      expect((await get("/secret", { authorization: "Bearer t-1" })).status).toBe(200);
      expect((await get("/nowhere")).status).toBe(404);
      expect((await (await get("/big")).text()).length).toBe(100);
      expect(api.received.map((r) => r.path)).toEqual(["/items?shelf=A", "/items?shelf=A", "/items?shelf=A", "/moved", "/secret", "/secret", "/nowhere", "/big"]);
      expect(api.received[5]?.headers.authorization).toBe("Bearer t-1");
    } finally {
      await api.close();
    }
  });
});

describe("startMcpFixture", () => {
  it("serves its tools to an SDK client with the token and refuses one without", async () => {
    const mcp = await startMcpFixture({
      token: "token-1",
      tools: [{ name: "lookup", description: "Look up.", inputSchema: { type: "object", properties: { q: { type: "string" } } }, text: "found it" }],
    });
    try {
      const connect = async (token: string) => {
        const client = new Client({ name: "fixture-test", version: "0.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(`${mcp.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
        await client.connect(transport);
        return client;
      };
      const client = await connect("token-1");
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["lookup"]);
        const result = await client.callTool({ name: "lookup", arguments: { q: "x" } });
        expect(result.content).toEqual([{ type: "text", text: "found it" }]);
      } finally {
        await client.close();
      }
      await expect(connect("wrong")).rejects.toThrow();
      expect((await fetch(`${mcp.origin}/mcp`, { headers: { authorization: "Bearer token-1" } })).status).toBe(405);
    } finally {
      await mcp.close();
    }
  });
});
