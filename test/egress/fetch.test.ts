// egressFetch: the same egress rules behind a fetch signature, with event
// streams passed on as they arrive, scrubbed and under the byte cap: a
// server's own stream (GET) past the deadline, a POST's answer within it.
import { describe, expect, it } from "vitest";
import { EgressDenied, ResponseTooLarge } from "../../src/errors.js";
import { type CredentialRef, egressFetch } from "../../src/egress/index.js";
import { json, loopbackPerTest, testPolicy } from "./loopback.js";

const { serve, repeat } = loopbackPerTest();

describe("egressFetch", () => {
  it("sends through egress: User-Agent, credential, JSON body", async () => {
    const api = await serve((req, res) => json(res, 200, { got: JSON.parse(req.body) as unknown }));
    const credential: CredentialRef = { name: "mcp", kind: "bearer", hosts: [api.host], placement: { in: "bearer" } };
    const fetch = egressFetch(testPolicy([api.host], { env: { MCP_API_KEY: "k" } }), credential);
    const res = await fetch(`${api.origin}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ a: 1 }) });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${api.origin}/mcp`);
    expect(await res.json()).toEqual({ got: { a: 1 } });
    expect(api.received[0]?.headers).toMatchObject({ authorization: "Bearer k", "user-agent": expect.stringMatching(/^stepgate\//) as unknown });
  });

  it("accepts a Request as input", async () => {
    const api = await serve((req, res) => json(res, 200, { method: req.method, body: req.body }));
    const res = await egressFetch(testPolicy([api.host]))(new Request(`${api.origin}/mcp`, { method: "POST", body: "hello" }));
    expect(await res.json()).toEqual({ method: "POST", body: "hello" });
  });

  it("refuses an undeclared host", async () => {
    await expect(egressFetch(testPolicy(["127.0.0.1:1"]))("http://127.0.0.1:2/mcp")).rejects.toBeInstanceOf(EgressDenied);
  });

  it("streams an event stream past the deadline", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let n = 0;
      const t = repeat(() => {
        res.write(`data: ${"x".repeat(100)} ${n}\n\n`);
        if (++n === 8) {
          clearInterval(t);
          res.end();
        }
      }, 60);
    });
    const res = await egressFetch(testPolicy([api.host], { timeoutMs: 200, maxBytes: 8 * 120 }))(`${api.origin}/mcp`, { method: "GET" });
    const text = await res.text();
    expect(text.split("\n\n").filter(Boolean)).toHaveLength(8);
  });

  it("ends a POST's event stream that never ends at the deadline, with ToolCallFailed", async () => {
    let closed = false;
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      // Keep-alive comments forever: bytes keep coming, the answer never does.
      repeat(() => res.write(": keep-alive\n\n"), 20);
      res.on("close", () => (closed = true));
    });
    const res = await egressFetch(testPolicy([api.host], { timeoutMs: 300 }), undefined, "tools")(`${api.origin}/mcp`, { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
    // Headers came in time; the body is what misses the deadline.
    await expect(res.text()).rejects.toMatchObject({ name: "ToolCallFailed", status: null, details: { operation: "tools", reason: "no complete response within 300 ms" } });
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
  });

  it("lets a POST's event stream that ends in time through whole, and stops its deadline", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      setTimeout(() => res.end("data: two\n\n"), 50);
    });
    const res = await egressFetch(testPolicy([api.host], { timeoutMs: 5_000 }))(`${api.origin}/mcp`, { method: "POST", body: "{}" });
    expect(await res.text()).toBe("data: one\n\ndata: two\n\n");
  });

  it("ends an event stream with ResponseTooLarge once its bytes, all told, pass the cap", async () => {
    let closed = false;
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("close", () => (closed = true));
      // Each event is well under the cap; only the running total passes it.
      repeat(() => res.write(`data: ${"x".repeat(100)}\n\n`), 5);
    });
    const res = await egressFetch(testPolicy([api.host], { maxBytes: 1_000 }))(`${api.origin}/mcp`, { method: "GET" });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = 0;
    const failure = await (async () => {
      // Bounded, so a stream that is never cut fails this test instead of hanging it.
      while (received < 10_000) {
        const { value, done } = await reader.read();
        if (done) return "ended";
        received += value.byteLength;
      }
      return "never cut";
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResponseTooLarge);
    expect(failure).toMatchObject({ details: { limit: 1_000 } });
    expect(received).toBeLessThanOrEqual(1_000);
    // The socket is let go, not left streaming into a buffer.
    await expect.poll(() => closed).toBe(true);
  });

  it("refuses an event stream whose declared length is over the cap", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "content-length": "5000" });
      res.write("data: x\n\n");
    });
    await expect(egressFetch(testPolicy([api.host], { maxBytes: 1_000 }))(`${api.origin}/mcp`)).rejects.toBeInstanceOf(ResponseTooLarge);
  });

  it("scrubs a credential an event stream echoes, even split across two writes", async () => {
    const secret = "s3cr3t-Value/+=";
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: {"echo":"${secret.slice(0, 7)}`);
      // Apart in time, so the two halves arrive as separate chunks.
      setTimeout(() => res.end(`${secret.slice(7)}","b64":"${Buffer.from(secret).toString("base64")}"}\n\n`), 50);
    });
    const credential: CredentialRef = { name: "mcp", kind: "bearer", hosts: [api.host], placement: { in: "bearer" } };
    const res = await egressFetch(testPolicy([api.host], { env: { MCP_API_KEY: secret } }), credential)(`${api.origin}/mcp`);
    const body = await res.text();
    expect(api.received[0]?.headers.authorization).toBe(`Bearer ${secret}`);
    expect(body).toBe('data: {"echo":"[redacted]","b64":"[redacted]"}\n\n');
  });

  it("passes each event on at once, holding back only what could start the value", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      // The stream stays open: the event must arrive without waiting for more.
    });
    const credential: CredentialRef = { name: "mcp", kind: "bearer", hosts: [api.host], placement: { in: "bearer" } };
    const controller = new AbortController();
    const res = await egressFetch(testPolicy([api.host], { env: { MCP_API_KEY: "a-long-enough-value-0123456789" } }), credential)(`${api.origin}/mcp`, { signal: controller.signal });
    const { value } = await res.body!.getReader().read();
    expect(Buffer.from(value!).toString("utf8")).toBe("data: first\n\n");
    controller.abort();
  });

  it("still lets the caller's signal end an event stream", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      repeat(() => res.write("data: tick\n\n"), 20);
    });
    const controller = new AbortController();
    const res = await egressFetch(testPolicy([api.host]))(`${api.origin}/mcp`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toBeDefined();
  });

  it("keeps the deadline and byte cap for JSON answers", async () => {
    const api = await serve((req, res) => (req.url === "/slow" ? undefined : json(res, 200, "y".repeat(1000))));
    const policy = testPolicy([api.host], { timeoutMs: 200, maxBytes: 500 });
    await expect(egressFetch(policy)(`${api.origin}/big`, { method: "POST" })).rejects.toBeInstanceOf(ResponseTooLarge);
    await expect(egressFetch(policy)(`${api.origin}/slow`, { method: "POST" })).rejects.toMatchObject({ name: "ToolCallFailed", status: null });
  });

  it("retries a 429 on POST but not a 503", async () => {
    let calls = 0;
    const api = await serve((req, res) => {
      calls++;
      if (req.url === "/limited" && calls === 1) return json(res, 429, {}, { "retry-after": "1" });
      json(res, req.url === "/busy" ? 503 : 200, {});
    });
    const policy = testPolicy([api.host]);
    expect((await egressFetch(policy)(`${api.origin}/limited`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(policy.waits).toEqual([1000]);
    expect((await egressFetch(policy)(`${api.origin}/busy`, { method: "POST", body: "{}" })).status).toBe(503);
    expect(calls).toBe(3);
  });

  it("returns a 202 with an empty body and a 204 with none", async () => {
    const api = await serve((req, res) => {
      res.writeHead(req.url === "/accepted" ? 202 : 204);
      res.end();
    });
    const fetch = egressFetch(testPolicy([api.host]));
    expect(await (await fetch(`${api.origin}/accepted`, { method: "POST" })).text()).toBe("");
    expect((await fetch(`${api.origin}/none`, { method: "DELETE" })).body).toBeNull();
  });
});
