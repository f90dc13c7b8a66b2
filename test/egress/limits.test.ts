// The seed's Time and size rule: the deadline covers the body, and a body
// over the cap is ResponseTooLarge whether or not its length is declared.
import { describe, expect, it } from "vitest";
import { ResponseTooLarge, ToolCallFailed } from "../../src/errors.js";
import { egress } from "../../src/egress/index.js";
import { json, loopbackPerTest, startLoopback, testPolicy } from "./loopback.js";

const { serve, repeat } = loopbackPerTest();

/** Writes `chunk` every `everyMs` and never ends. */
const drip = (chunk: string, everyMs: number, headers: Record<string, string> = {}): Parameters<typeof startLoopback>[0] => (_req, res) => {
  res.writeHead(200, { "content-type": "text/plain", ...headers });
  repeat(() => res.write(chunk), everyMs);
};

describe("deadline", () => {
  it("ends a slow-drip body at the deadline although bytes keep arriving", async () => {
    // Each chunk arrives well inside undici's idle bodyTimeout; only an overall deadline stops this.
    const api = await serve(drip("x", 20, { "content-length": "100000" }));
    const started = Date.now();
    const failure = egress({ operation: "slow", method: "POST", url: `${api.origin}/` }, testPolicy([api.host], { timeoutMs: 300 }));
    await expect(failure).rejects.toBeInstanceOf(ToolCallFailed);
    await expect(failure).rejects.toMatchObject({ status: null, details: { reason: "no complete response within 300 ms" } });
    // Without the deadline the 100,000 declared bytes would take 2,000 s to drip in;
    // the bound is far above 300 ms so a loaded machine cannot fail it.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("ends an endless body at the deadline", async () => {
    const api = await serve(drip("y".repeat(1024), 5));
    const failure = egress({ operation: "endless", method: "POST", url: `${api.origin}/` }, testPolicy([api.host], { timeoutMs: 300, maxBytes: 1e9 }));
    await expect(failure).rejects.toMatchObject({ name: "ToolCallFailed", details: { reason: "no complete response within 300 ms" } });
  });

  it("ends a server that never sends headers", async () => {
    const api = await serve(() => undefined);
    await expect(egress({ operation: "mute", method: "POST", url: `${api.origin}/` }, testPolicy([api.host], { timeoutMs: 200 }))).rejects.toMatchObject({
      details: { reason: "no complete response within 200 ms" },
    });
  });

  it("gives each retry of a retry-safe request its own deadline", async () => {
    let calls = 0;
    const api = await serve((_req, res) => (++calls < 3 ? undefined : json(res, 200, { calls })));
    const policy = testPolicy([api.host], { timeoutMs: 200 });
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(3);
    expect(policy.retries).toEqual([
      { operation: "get", attempt: 1, status: null, waitMs: 500 },
      { operation: "get", attempt: 2, status: null, waitMs: 1000 },
    ]);
  });
});

describe("byte cap", () => {
  it("refuses a declared content-length over the cap before reading", async () => {
    // The body never comes: only the declared length can end this before the deadline.
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "5000" });
      res.write("z");
    });
    const failure = egress({ operation: "big", method: "GET", url: `${api.origin}/` }, testPolicy([api.host], { maxBytes: 4096, timeoutMs: 5_000 }));
    await expect(failure).rejects.toBeInstanceOf(ResponseTooLarge);
    await expect(failure).rejects.toMatchObject({ details: { what: "big", limit: 4096 } });
  });

  it("stops reading a chunked body once it passes the cap", async () => {
    // The body never ends: had the reader not stopped at the cap, the deadline would end it
    // as ToolCallFailed instead, so the error type alone tells the two apart.
    const api = await serve(drip("w".repeat(1024), 1));
    await expect(egress({ operation: "big", method: "GET", url: `${api.origin}/` }, testPolicy([api.host], { maxBytes: 64 * 1024, timeoutMs: 10_000 }))).rejects.toBeInstanceOf(
      ResponseTooLarge,
    );
  });

  it("accepts a body of exactly the cap", async () => {
    const api = await serve((_req, res) => res.end("q".repeat(4096)));
    const res = await egress({ operation: "fits", method: "GET", url: `${api.origin}/` }, testPolicy([api.host], { maxBytes: 4096 }));
    expect(res.body.byteLength).toBe(4096);
  });

  it("is not retried", async () => {
    const api = await serve((_req, res) => res.end("q".repeat(100)));
    const policy = testPolicy([api.host], { maxBytes: 10 });
    await expect(egress({ operation: "big", method: "GET", url: `${api.origin}/` }, policy)).rejects.toBeInstanceOf(ResponseTooLarge);
    expect(api.received).toHaveLength(1);
  });
});
