// Issue 12, content codings: an API that compresses (asked or not) is
// decoded before anything reads the answer, --response-bytes caps both the
// wire bytes and what they inflate to, and an unknown or broken coding is a
// ToolCallFailed that says so.
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ResponseTooLarge, ToolCallFailed } from "../../src/errors.js";
import { type CredentialRef, egress, egressFetch } from "../../src/egress/index.js";
import { loopbackPerTest, testPolicy, text } from "./loopback.js";

const { serve } = loopbackPerTest();

const ENCODERS: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
const payload = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })) });

describe("decoding", () => {
  it.each(Object.keys(ENCODERS))("decodes %s although the request did not need to ask", async (coding) => {
    const api = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": coding }).end(ENCODERS[coding]!(Buffer.from(payload))));
    const res = await egress({ operation: "list", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]));
    expect(text(res.body)).toBe(payload);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["content-length"]).toBeUndefined();
    expect(api.received[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("undoes stacked codings in reverse order", async () => {
    const api = await serve((_req, res) => res.writeHead(200, { "content-encoding": "deflate, gzip" }).end(gzipSync(deflateSync(Buffer.from(payload)))));
    const res = await egress({ operation: "list", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]));
    expect(text(res.body)).toBe(payload);
  });

  it("overrides a caller's Accept-Encoding with the codings it can decode", async () => {
    const api = await serve((_req, res) => res.end("ok"));
    await egress({ operation: "get", method: "GET", url: `${api.origin}/`, headers: { "Accept-Encoding": "zstd" } }, testPolicy([api.host]));
    expect(api.received[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("reads an empty body that names a coding as empty", async () => {
    const api = await serve((req, res) => res.writeHead(req.url === "/none" ? 204 : 201, { "content-encoding": "gzip" }).end());
    for (const path of ["/none", "/created"]) {
      const res = await egress({ operation: "post", method: "POST", url: `${api.origin}${path}` }, testPolicy([api.host]));
      expect(res.body.byteLength).toBe(0);
    }
  });

  it("decodes before scrubbing, so a compressed echo of the credential is scrubbed too", async () => {
    const secret = "tok_compressed_0123456789";
    const api = await serve((req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.from(`seen ${String(req.headers["x-key"])}`))));
    const credential: CredentialRef = { name: "echo", kind: "api_key", hosts: [api.host], placement: { in: "header", name: "x-key" } };
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/`, credential }, testPolicy([api.host], { env: { ECHO_API_KEY: secret } }));
    expect(api.received[0]?.headers["x-key"]).toBe(secret);
    expect(text(res.body)).not.toContain(secret);
    expect(text(res.body)).toMatch(/^seen /);
  });
});

describe("the byte cap on both sides", () => {
  it("stops a decompression bomb as soon as the decoded bytes pass the cap", async () => {
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024)); // ~16 KB on the wire
    const api = await serve((_req, res) => res.writeHead(200, { "content-encoding": "gzip", "content-length": String(bomb.length) }).end(bomb));
    const policy = testPolicy([api.host], { maxBytes: 1_000_000 });
    expect(bomb.length).toBeLessThan(policy.maxBytes);
    const failure = egress({ operation: "bomb", method: "GET", url: `${api.origin}/` }, policy);
    await expect(failure).rejects.toBeInstanceOf(ResponseTooLarge);
    await expect(failure).rejects.toMatchObject({ details: { what: "bomb", limit: 1_000_000 } });
  });

  it("caps the encoded bytes too, when they are more than they decode to", async () => {
    // Random bytes grow when compressed; the stored gzip of 200 KB exceeds a 100 KB cap on the wire.
    const noise = randomBytes(200_000);
    const api = await serve((_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(noise, { level: 0 })));
    await expect(egress({ operation: "noise", method: "GET", url: `${api.origin}/` }, testPolicy([api.host], { maxBytes: 100_000 }))).rejects.toBeInstanceOf(ResponseTooLarge);
  });

  it("accepts a decoded body of exactly the cap", async () => {
    const api = await serve((_req, res) => res.writeHead(200, { "content-encoding": "br" }).end(brotliCompressSync(Buffer.from("q".repeat(4096)))));
    const res = await egress({ operation: "fits", method: "GET", url: `${api.origin}/` }, testPolicy([api.host], { maxBytes: 4096 }));
    expect(res.body.byteLength).toBe(4096);
  });
});

describe("codings Stepgate cannot read", () => {
  it("refuses an unknown coding with a reason naming it", async () => {
    const api = await serve((_req, res) => res.writeHead(200, { "content-encoding": "zstd" }).end("(zstd bytes)"));
    const failure = egress({ operation: "get", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]));
    await expect(failure).rejects.toBeInstanceOf(ToolCallFailed);
    await expect(failure).rejects.toMatchObject({ status: 200, details: { reason: 'the response uses content-encoding "zstd", which Stepgate cannot decode (it accepts gzip, deflate, br)' } });
    // The reason is in the message the client reads, not only in the details.
    await expect(failure).rejects.toThrow('get failed: HTTP 200, the response uses content-encoding "zstd", which Stepgate cannot decode (it accepts gzip, deflate, br)');
  });

  it.each([
    ["gzip", Buffer.from("this is not gzip at all")],
    ["br", Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])],
    // RFC 9110's deflate is the zlib format; a raw deflate stream does not pass as one.
    ["deflate", deflateRawSync(Buffer.from(payload))],
    ["gzip", gzipSync(Buffer.from(payload)).subarray(0, 40)],
  ])("fails a broken %s body without a retry", async (coding, bytes) => {
    const api = await serve((_req, res) => res.writeHead(200, { "content-encoding": coding }).end(bytes));
    const failure = egress({ operation: "get", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]));
    await expect(failure).rejects.toBeInstanceOf(ToolCallFailed);
    await expect(failure).rejects.toMatchObject({ details: { reason: expect.stringMatching(new RegExp(`^the response's ${coding} encoding is broken \\(.+\\)$`)) } });
    expect(api.received).toHaveLength(1);
  });
});

describe("egressFetch (MCP servers, OAuth endpoints)", () => {
  it("hands the SDK a decoded JSON body without the coding headers", async () => {
    const api = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(Buffer.from(payload))));
    const response = await egressFetch(testPolicy([api.host]))(`${api.origin}/mcp`, { method: "POST", body: "{}" });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe(payload);
  });

  it("decodes a compressed event stream as it arrives, under the cap", async () => {
    const events = Array.from({ length: 50 }, (_, i) => `data: {"n":${i}}\n\n`).join("");
    const api = await serve((_req, res) => res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" }).end(gzipSync(Buffer.from(events))));
    const response = await egressFetch(testPolicy([api.host]))(`${api.origin}/mcp`);
    expect(await response.text()).toBe(events);
    const capped = await egressFetch(testPolicy([api.host], { maxBytes: 200 }))(`${api.origin}/mcp`);
    await expect(capped.text()).rejects.toThrow();
  });
});
