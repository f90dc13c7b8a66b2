// The body limit on its own: bodies within it reach the route unchanged,
// oversized ones are read to the end and refused, and one too large to drain
// is refused with the connection marked for closing.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { bodyLimit } from "../../middleware/body-limit.js";

function app() {
  const seen: string[] = [];
  const hono = new Hono();
  hono.use(bodyLimit({ maxBytes: 10, drainBytes: 20 }));
  hono.post("/", async (c) => {
    seen.push(await c.req.text());
    return c.text("ok");
  });
  return { hono, seen };
}

function chunked(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}

describe("bodyLimit", () => {
  it("hands a body within the limit on unchanged, streamed or not", async () => {
    const { hono, seen } = app();
    expect((await hono.request("/", { method: "POST", body: "0123456789" })).status).toBe(200);
    expect((await hono.request("/", { method: "POST", body: chunked("01234", "56789"), duplex: "half" } as RequestInit)).status).toBe(200);
    expect(seen).toEqual(["0123456789", "0123456789"]);
  });

  it("refuses one byte over with 413, keeping the connection when it drained the rest", async () => {
    const { hono, seen } = app();
    const response = await hono.request("/", { method: "POST", body: chunked("01234", "567890"), duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBeNull();
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("exceeds 10 bytes") }, id: null });
    expect(seen).toEqual([]);
  });

  it("stops reading a body too large to drain and closes the connection", async () => {
    const { hono, seen } = app();
    const response = await hono.request("/", { method: "POST", body: chunked("x".repeat(8), "x".repeat(8), "x".repeat(8), "x".repeat(8)), duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(seen).toEqual([]);
  });
});
