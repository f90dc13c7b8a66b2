// design.md: no secret reaches an error, a retry record or what egress hands
// back, on any path, even from an API that echoes everything it was sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CredentialRef, egress } from "../../src/egress/index.js";
import { type Loopback, startLoopback, testPolicy } from "./loopback.js";

const SECRET = "tok_9f8e7d6c5b4a/+=Z";
const FORMS = [SECRET, encodeURIComponent(SECRET), new URLSearchParams({ v: SECRET }).toString().slice(2), Buffer.from(SECRET).toString("base64")];

let api: Loopback;
let elsewhere: Loopback;
beforeAll(async () => {
  elsewhere = await startLoopback((_req, res) => res.end("elsewhere"));
  // Echoes the request (URL and headers) in its body and headers, whatever it answers.
  api = await startLoopback((req, res) => {
    const echo = JSON.stringify({ url: req.url, headers: req.headers });
    const echoHeaders = { "x-echo": encodeURIComponent(echo), "set-cookie": `seen=${encodeURIComponent(req.headers.authorization ?? req.url ?? "")}` };
    const path = new URL(req.url ?? "/", api.origin).pathname;
    if (path === "/slow") return;
    if (path === "/out") res.writeHead(302, { location: `http://localhost:${elsewhere.port}/x${req.url?.slice(4)}`, ...echoHeaders });
    else if (path === "/busy") res.writeHead(429, { "retry-after": "0", ...echoHeaders });
    else if (path === "/too-busy") res.writeHead(429, { "retry-after": "3600", ...echoHeaders });
    else if (path === "/error") res.writeHead(500, echoHeaders);
    else if (path === "/big") return res.writeHead(200, echoHeaders).end(echo.repeat(100));
    else res.writeHead(200, echoHeaders);
    res.end(echo);
  });
});
afterAll(async () => {
  await api.close();
  await elsewhere.close();
});

const placements: CredentialRef["placement"][] = [{ in: "header", name: "x-key" }, { in: "query", name: "key" }, { in: "cookie", name: "sid" }, { in: "bearer" }];

describe("the credential value never leaves egress", () => {
  it.each(placements.map((p) => [p.in, p] as const))("placed in %s", async (_name, placement) => {
    const seen: unknown[] = [];
    const policy = testPolicy([api.host], { env: { ECHO_API_KEY: SECRET }, timeoutMs: 300, maxBytes: 2_000, onRetry: (r) => seen.push(r) });
    const credential: CredentialRef = { name: "echo", kind: "api_key", hosts: [api.host], placement };
    for (const [path, method] of [["/ok", "GET"], ["/busy", "GET"], ["/too-busy", "GET"], ["/error", "POST"], ["/slow", "POST"], ["/big", "GET"], ["/out?key=" + encodeURIComponent(SECRET), "GET"]] as const) {
      try {
        const res = await egress({ operation: `op ${path}`, method, url: `${api.origin}${path}`, credential, body: method === "POST" ? "{}" : undefined }, policy);
        seen.push({ status: res.status, headers: res.headers, body: Buffer.from(res.body).toString("utf8"), url: res.url });
      } catch (error) {
        const e = error as Error & { details?: unknown; body?: unknown };
        seen.push({ name: e.name, message: e.message, details: e.details, body: e.body, stack: e.stack });
      }
    }
    // The API really did receive the value, so the checks below are not vacuous.
    expect(FORMS.some((form) => JSON.stringify(api.received).includes(form))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(8);
    const all = JSON.stringify(seen);
    for (const form of FORMS) expect(all).not.toContain(form);
    expect(all).toContain("[redacted]");
    expect(elsewhere.received).toHaveLength(0);
  });

  it("keeps a network error free of the value", async () => {
    const gone = await startLoopback(() => undefined);
    await gone.close();
    const credential: CredentialRef = { name: "echo", kind: "bearer", hosts: [gone.host], placement: { in: "bearer" } };
    const failure = await egress({ operation: "op", method: "POST", url: `${gone.origin}/`, credential }, testPolicy([gone.host], { env: { ECHO_API_KEY: SECRET } })).catch((e: unknown) => e);
    const text = JSON.stringify({ m: (failure as Error).message, d: (failure as { details: unknown }).details });
    expect(text).toContain("ECONNREFUSED");
    for (const form of FORMS) expect(text).not.toContain(form);
  });

  it("keeps a header undici refuses free of the value", async () => {
    const bad = "line1\r\nX-Injected: 1";
    const credential: CredentialRef = { name: "echo", kind: "api_key", hosts: [api.host], placement: { in: "header", name: "x-key" } };
    const failure = await egress({ operation: "op", method: "POST", url: `${api.origin}/ok`, credential }, testPolicy([api.host], { env: { ECHO_API_KEY: bad } })).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: "ToolCallFailed" });
    expect(JSON.stringify({ m: (failure as Error).message, d: (failure as { details: unknown }).details })).not.toContain("line1");
  });
});
