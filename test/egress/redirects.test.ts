// The seed's Hosts rule: refuse any host no tool declares, on every hop.
import { describe, expect, it } from "vitest";
import { EgressDenied, ToolCallFailed } from "../../src/errors.js";
import { egress } from "../../src/egress/index.js";
import { json, loopbackPerTest, startLoopback, testPolicy, text } from "./loopback.js";

const { serve } = loopbackPerTest();

/** Answers `/hop/<n>` with a redirect to `/hop/<n-1>` and `/hop/0` with 200. */
const chain = (status = 302): Parameters<typeof startLoopback>[0] => (req, res) => {
  const n = Number(req.url?.split("/")[2] ?? 0);
  if (n > 0) {
    res.writeHead(status, { location: `/hop/${n - 1}` });
    res.end();
  } else json(res, 200, { method: req.method, body: req.body });
};

describe("host allowlist", () => {
  it("sends to a declared host with the User-Agent", async () => {
    const api = await serve((_req, res) => json(res, 200, { ok: true }));
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/x` }, testPolicy([api.host]));
    expect(res.status).toBe(200);
    expect(res.host).toBe(api.host);
    expect(api.received[0]?.headers["user-agent"]).toBe("stepgate/0.0.0-test (mailto:ops@example.org)");
  });

  it("refuses an undeclared host before connecting", async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    await expect(egress({ operation: "get", method: "GET", url: `${api.origin}/x` }, testPolicy(["127.0.0.1:1"]))).rejects.toBeInstanceOf(EgressDenied);
    expect(api.received).toHaveLength(0);
  });

  it("treats localhost, 127.0.0.1 and [::1] as different hosts", async () => {
    const v4 = await serve((_req, res) => json(res, 200, {}));
    const v6 = await serve((_req, res) => json(res, 200, {}), "::1");
    const policy = testPolicy([v4.host]);
    for (const url of [`http://localhost:${v4.port}/`, `http://[::1]:${v6.port}/`]) {
      await expect(egress({ operation: "get", method: "GET", url }, policy)).rejects.toBeInstanceOf(EgressDenied);
    }
    expect(v4.received).toHaveLength(0);
    expect(v6.received).toHaveLength(0);
    await egress({ operation: "get", method: "GET", url: `${v6.origin}/` }, testPolicy([v6.host]));
    expect(v6.received).toHaveLength(1);
  });

  it("refuses schemes other than http and https", async () => {
    await expect(egress({ operation: "get", method: "GET", url: "file:///etc/passwd" }, testPolicy([""]))).rejects.toBeInstanceOf(EgressDenied);
  });

  it("lets allowAnyHost through, but never with a credential", async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    const res = await egress({ operation: "document", method: "GET", url: `${api.origin}/doc`, allowAnyHost: true }, testPolicy([]));
    expect(res.status).toBe(200);
    const credential = { name: "k", kind: "bearer", hosts: [api.host], placement: { in: "bearer" } } as const;
    await expect(egress({ operation: "document", method: "GET", url: `${api.origin}/doc`, allowAnyHost: true, credential }, testPolicy([]))).rejects.toThrow(TypeError);
  });
});

describe("redirects", () => {
  it("follows a same-host chain and reports the final URL", async () => {
    const api = await serve(chain());
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/hop/3` }, testPolicy([api.host]));
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${api.origin}/hop/0`);
    expect(api.received.map((r) => r.url)).toEqual(["/hop/3", "/hop/2", "/hop/1", "/hop/0"]);
    expect(api.received.every((r) => r.headers["user-agent"]?.startsWith("stepgate/"))).toBe(true);
  });

  it("stops after 10 redirects", async () => {
    const api = await serve(chain());
    const policy = testPolicy([api.host]);
    await expect(egress({ operation: "get", method: "GET", url: `${api.origin}/hop/10` }, policy)).resolves.toMatchObject({ status: 200 });
    const failure = egress({ operation: "get", method: "GET", url: `${api.origin}/hop/11` }, policy);
    await expect(failure).rejects.toBeInstanceOf(ToolCallFailed);
    await expect(failure).rejects.toThrow(/more than 10 redirects/);
  });

  it("follows a redirect to another declared host (localhost:<port>)", async () => {
    const target = await serve((_req, res) => json(res, 200, { at: "target" }));
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${target.port}/landed` });
      res.end();
    });
    const res = await egress({ operation: "get", method: "GET", url: `${api.origin}/moved` }, testPolicy([api.host, `localhost:${target.port}`]));
    expect(text(res.body)).toContain("target");
    expect(res.host).toBe(`localhost:${target.port}`);
    expect(target.received[0]?.headers.host).toBe(`localhost:${target.port}`);
  });

  it("refuses a redirect to an undeclared host before it receives anything", async () => {
    const target = await serve((_req, res) => json(res, 200, {}));
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${target.port}/landed` });
      res.end();
    });
    const failure = egress({ operation: "get", method: "GET", url: `${api.origin}/moved` }, testPolicy([api.host]));
    await expect(failure).rejects.toBeInstanceOf(EgressDenied);
    await expect(failure).rejects.toMatchObject({ details: { host: `localhost:${target.port}` } });
    expect(target.received).toHaveLength(0);
    expect(api.received).toHaveLength(1);
  });

  it.each([301, 302, 303])("turns a POST into a GET without body on %i", async (status) => {
    const api = await serve(chain(status));
    const res = await egress(
      { operation: "post", method: "POST", url: `${api.origin}/hop/1`, body: '{"a":1}', headers: { "Content-Type": "application/json" } },
      testPolicy([api.host]),
    );
    expect(JSON.parse(text(res.body))).toEqual({ method: "GET", body: "" });
    expect(api.received[1]?.headers["content-type"]).toBeUndefined();
  });

  it.each([307, 308])("keeps method and body on %i", async (status) => {
    const api = await serve(chain(status));
    const res = await egress({ operation: "post", method: "POST", url: `${api.origin}/hop/1`, body: '{"a":1}' }, testPolicy([api.host]));
    expect(JSON.parse(text(res.body))).toEqual({ method: "POST", body: '{"a":1}' });
  });

  it("drops caller Authorization and Cookie headers when a redirect changes host", async () => {
    const target = await serve((_req, res) => json(res, 200, {}));
    const api = await serve((_req, res) => {
      res.writeHead(307, { location: `${target.origin}/` });
      res.end();
    });
    await egress({ operation: "get", method: "GET", url: `${api.origin}/`, headers: { Authorization: "x", Cookie: "c=1" } }, testPolicy([api.host, target.host]));
    expect(api.received[0]?.headers.authorization).toBe("x");
    expect(target.received[0]?.headers.authorization).toBeUndefined();
    expect(target.received[0]?.headers.cookie).toBeUndefined();
  });
});
