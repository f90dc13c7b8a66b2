// The seed's Retries section, against a real server; waits go through the
// injectable sleep so nothing here actually waits.
import { describe, expect, it } from "vitest";
import { ToolCallFailed } from "../../src/errors.js";
import { egress } from "../../src/egress/index.js";
import { backoffMs, requestedWaitMs, shouldRetryStatus } from "../../src/egress/retry-policy.js";
import { type Loopback, json, loopbackPerTest, startLoopback, testPolicy, text } from "./loopback.js";

const { serve } = loopbackPerTest();
/** Answers with `answers` in order, the last one repeating. */
async function scripted(answers: { status: number; headers?: Record<string, string>; body?: unknown }[]): Promise<Loopback> {
  let n = 0;
  return serve((_req, res) => {
    const a = answers[Math.min(n++, answers.length - 1)]!;
    json(res, a.status, a.body ?? { status: a.status }, a.headers);
  });
}

describe("what is retried", () => {
  it("retries a 429 with Retry-After seconds and waits that long", async () => {
    const api = await scripted([{ status: 429, headers: { "retry-after": "3" } }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    const res = await egress({ operation: "search", method: "POST", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(policy.waits).toEqual([3000]);
    expect(policy.retries).toEqual([{ operation: "search", attempt: 1, status: 429, waitMs: 3000 }]);
  });

  it("reads Retry-After as an HTTP date", async () => {
    const at = new Date(Date.now() + 10_000).toUTCString();
    const api = await scripted([{ status: 429, headers: { "retry-after": at } }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    await egress({ operation: "op", method: "GET", url: `${api.origin}/` }, policy);
    expect(policy.waits[0]).toBeGreaterThan(8_000);
    expect(policy.waits[0]).toBeLessThanOrEqual(10_000);
  });

  it("retries GitHub's rate-limit 403 until x-ratelimit-reset", async () => {
    const reset = Math.floor(Date.now() / 1000) + 20;
    const api = await scripted([{ status: 403, headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) } }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    const res = await egress({ operation: "issues", method: "POST", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(200);
    expect(policy.waits[0]).toBeGreaterThan(17_000);
    expect(policy.waits[0]).toBeLessThanOrEqual(20_000);
  });

  it("waits the seconds a 429's ratelimit-reset names (the IETF drafts' RateLimit headers)", async () => {
    const api = await scripted([{ status: 429, headers: { "ratelimit-limit": "960", "ratelimit-remaining": "0", "ratelimit-reset": "9" } }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    const res = await egress({ operation: "incidents", method: "GET", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(200);
    expect(policy.waits).toEqual([9_000]);
  });

  it("returns a plain 403 at once", async () => {
    const api = await scripted([{ status: 403 }, { status: 200 }]);
    const res = await egress({ operation: "op", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]));
    expect(res.status).toBe(403);
    expect(api.received).toHaveLength(1);
  });

  it("retries a 503 on GET", async () => {
    const api = await scripted([{ status: 503 }, { status: 200, body: { ok: true } }]);
    const policy = testPolicy([api.host]);
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/` }, policy);
    expect(JSON.parse(text(res.body))).toEqual({ ok: true });
    expect(policy.retries).toEqual([{ operation: "get", attempt: 1, status: 503, waitMs: 500 }]);
  });

  it("does not retry a 503 on POST, and returns it", async () => {
    const api = await scripted([{ status: 503 }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    const res = await egress({ operation: "post", method: "POST", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(503);
    expect(api.received).toHaveLength(1);
    expect(policy.retries).toEqual([]);
  });

  it("retries a 503 on POST declared effect: read", async () => {
    const api = await scripted([{ status: 503 }, { status: 200 }]);
    const res = await egress({ operation: "search", method: "POST", url: `${api.origin}/`, body: "{}", retrySafe: true }, testPolicy([api.host]));
    expect(res.status).toBe(200);
    expect(api.received.map((r) => r.body)).toEqual(["{}", "{}"]);
  });

  it("retries a network error on GET but fails a POST at once", async () => {
    const gone = await startLoopback(() => undefined);
    await gone.close();
    const getPolicy = testPolicy([gone.host]);
    await expect(egress({ operation: "get", method: "GET", url: `${gone.origin}/` }, getPolicy)).rejects.toMatchObject({ name: "ToolCallFailed", status: null });
    expect(getPolicy.retries).toHaveLength(4);
    const postPolicy = testPolicy([gone.host]);
    const failure = egress({ operation: "post", method: "PATCH", url: `${gone.origin}/` }, postPolicy);
    await expect(failure).rejects.toBeInstanceOf(ToolCallFailed);
    await expect(failure).rejects.toThrow(/ECONNREFUSED/);
    expect(postPolicy.retries).toEqual([]);
  });
});

describe("how long and how often", () => {
  it("backs off 500, 1000, 2000, 4000 ms, then returns the last response", async () => {
    const api = await scripted([{ status: 500, body: { attempt: "any" } }]);
    const policy = testPolicy([api.host]);
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(500);
    expect(res.attempts).toBe(5);
    expect(api.received).toHaveLength(5);
    expect(policy.waits).toEqual([500, 1000, 2000, 4000]);
    expect(policy.retries.map((r) => (r as { attempt: number }).attempt)).toEqual([1, 2, 3, 4]);
  });

  it("ends the call at once when asked to wait over 60 s", async () => {
    const api = await scripted([{ status: 429, headers: { "retry-after": "61" }, body: { error: "slow down" } }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    const failure = egress({ operation: "op", method: "GET", url: `${api.origin}/` }, policy);
    await expect(failure).rejects.toBeInstanceOf(ToolCallFailed);
    await expect(failure).rejects.toMatchObject({ status: 429, body: '{"error":"slow down"}' });
    await expect(failure).rejects.toThrow('op failed: HTTP 429, the API asked to wait 61 s, more than 60 s: {"error":"slow down"}');
    expect(api.received).toHaveLength(1);
    expect(policy.waits).toEqual([]);
  });

  it("waits exactly 60 s when asked to", async () => {
    const api = await scripted([{ status: 429, headers: { "retry-after": "60" } }, { status: 200 }]);
    const policy = testPolicy([api.host]);
    await egress({ operation: "op", method: "GET", url: `${api.origin}/` }, policy);
    expect(policy.waits).toEqual([60_000]);
  });

  it("reports the retry before sleeping", async () => {
    const api = await scripted([{ status: 429, headers: { "retry-after": "1" } }, { status: 200 }]);
    const order: string[] = [];
    const policy = testPolicy([api.host], { onRetry: () => order.push("record"), sleep: async () => void order.push("sleep") });
    await egress({ operation: "op", method: "GET", url: `${api.origin}/` }, policy);
    expect(order).toEqual(["record", "sleep"]);
  });

  it("cuts a long error body to 2,000 characters", async () => {
    const api = await scripted([{ status: 429, headers: { "retry-after": "100" }, body: "e".repeat(10_000) }]);
    await expect(egress({ operation: "op", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]))).rejects.toSatisfy(
      (e: ToolCallFailed) => e.body.length < 2_100 && e.body.endsWith("[truncated]"),
    );
  });
});

describe("a bound in all (totalMs: a fetch while loading or checking)", () => {
  it("ends at once when the wait asked for is past the bound, though within 60 s", async () => {
    const api = await scripted([{ status: 429, headers: { "retry-after": "10" } }, { status: 200 }]);
    const policy = testPolicy([api.host], { totalMs: 3_000 });
    await expect(egress({ operation: "doc", method: "GET", url: `${api.origin}/` }, policy)).rejects.toThrow(/doc failed: HTTP 429, the API asked to wait 10 s, more than the 3 s this fetch may take in all/);
    expect(policy.waits).toEqual([]);
  });

  it("names the seed's 60 s when that is the nearer limit", async () => {
    const api = await scripted([{ status: 503, headers: { "retry-after": "120" } }]);
    await expect(egress({ operation: "doc", method: "GET", url: `${api.origin}/` }, testPolicy([api.host], { totalMs: 90_000 }))).rejects.toThrow(/asked to wait 120 s, more than 60 s: /);
  });

  it("keeps the seed's backoff while it fits, then returns the last answer", async () => {
    const api = await scripted([{ status: 500 }]);
    const policy = testPolicy([api.host], { totalMs: 3_000 });
    const res = await egress({ operation: "doc", method: "GET", url: `${api.origin}/` }, policy);
    expect(res.status).toBe(500);
    // The injected sleep takes no time, so 500, 1000 and 2000 ms fit in 3 s and 4000 does not.
    expect(policy.waits).toEqual([500, 1000, 2000]);
    expect(res.attempts).toBe(4);
  });

  it("cuts an attempt's deadline to what is left, and does not retry with nothing left", async () => {
    let requests = 0;
    const api = await serve(() => {
      requests++; // never answers
    });
    const policy = testPolicy([api.host], { timeoutMs: 2_000, totalMs: 300 });
    await expect(egress({ operation: "doc", method: "GET", url: `${api.origin}/` }, policy)).rejects.toThrow(
      /doc failed: no complete response within 300 ms; not enough time is left of the 0\.3 s this fetch may take in all to try again/,
    );
    expect(requests).toBe(1);
    expect(policy.waits).toEqual([]);
  });
});

describe("a failure says how many attempts were sent (src/attempts.ts)", () => {
  it("names the attempts of a GET that got no answer, and none for a POST sent once", async () => {
    const gone = await startLoopback(() => undefined);
    await gone.close();
    const get = egress({ operation: "get", method: "GET", url: `${gone.origin}/` }, testPolicy([gone.host]));
    await expect(get).rejects.toThrow(/^get failed: network error: .*ECONNREFUSED.*, after 5 attempts$/);
    await expect(get).rejects.toMatchObject({ status: null, details: { reason: expect.stringMatching(/, after 5 attempts$/) } });
    const post = egress({ operation: "post", method: "POST", url: `${gone.origin}/` }, testPolicy([gone.host]));
    await expect(post).rejects.toThrow(/^post failed: network error: .*ECONNREFUSED/);
    await expect(post).rejects.not.toThrow(/attempt/);
  });

  it("names them after the status when the API, answered again, asks to wait too long", async () => {
    const api = await scripted([{ status: 503, headers: { "retry-after": "0" } }, { status: 429, headers: { "retry-after": "61" }, body: { error: "slow down" } }]);
    await expect(egress({ operation: "op", method: "GET", url: `${api.origin}/` }, testPolicy([api.host]))).rejects.toThrow(
      'op failed: HTTP 429, after 2 attempts, the API asked to wait 61 s, more than 60 s: {"error":"slow down"}',
    );
  });

  it("names them before the bound in all that stopped the retries", async () => {
    const gone = await startLoopback(() => undefined);
    await gone.close();
    // The injected sleep takes no time, so waits of 500, 1000 and 2000 ms fit in 3 s and 4000 does not: four attempts.
    await expect(egress({ operation: "doc", method: "GET", url: `${gone.origin}/` }, testPolicy([gone.host], { totalMs: 3_000 }))).rejects.toThrow(
      /^doc failed: network error: .*, after 4 attempts; not enough time is left of the 3 s this fetch may take in all to try again$/,
    );
  });
});

describe("retry policy (pure)", () => {
  it("decides from status and headers", () => {
    expect(shouldRetryStatus(429, {}, false)).toBe(true);
    expect(shouldRetryStatus(403, { "retry-after": "1" }, false)).toBe(true);
    expect(shouldRetryStatus(403, { "x-ratelimit-remaining": "5" }, true)).toBe(false);
    expect(shouldRetryStatus(502, {}, false)).toBe(false);
    expect(shouldRetryStatus(502, {}, true)).toBe(true);
    expect(shouldRetryStatus(404, {}, true)).toBe(false);
  });

  it("reads the wait the server asks for", () => {
    expect(requestedWaitMs({ "retry-after": "2" }, 0)).toBe(2000);
    expect(requestedWaitMs({ "retry-after": "Thu, 01 Jan 1970 00:00:05 GMT" }, 1000)).toBe(4000);
    expect(requestedWaitMs({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": "7" }, 2000)).toBe(5000);
    expect(requestedWaitMs({ "x-ratelimit-remaining": "1", "x-ratelimit-reset": "7" }, 2000)).toBeUndefined();
    expect(requestedWaitMs({ "retry-after": "soon" }, 0)).toBeUndefined();
    // The IETF drafts' RateLimit-Reset counts seconds from now.
    expect(requestedWaitMs({ "ratelimit-limit": "960", "ratelimit-remaining": "0", "ratelimit-reset": "12" }, 2000)).toBe(12_000);
    expect(requestedWaitMs({ "ratelimit-remaining": "3", "ratelimit-reset": "12" }, 2000)).toBeUndefined();
    expect(requestedWaitMs({ "ratelimit-remaining": "0", "ratelimit-reset": "soon" }, 2000)).toBeUndefined();
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([500, 1000, 2000, 4000]);
  });
});
