// The seed's Credentials rules: read from <NAME>_API_KEY when needed, placed
// as declared, sent only to the credential's hosts.
import { describe, expect, it } from "vitest";
import { CredentialUnavailable } from "../../src/errors.js";
import { type CredentialRef, type CredentialSource, credentialVariable, egress } from "../../src/egress/index.js";
import { scrubberFor } from "../../src/egress/credentials.js";
import { credentialCovers } from "../../src/egress/hosts.js";
import { json, loopbackPerTest, startLoopback, testPolicy } from "./loopback.js";

const SECRET = "s3cr3t-Value/+=";
const { serve } = loopbackPerTest();

const ok: Parameters<typeof startLoopback>[0] = (_req, res) => json(res, 200, {});
const cred = (hosts: string[], placement: CredentialRef["placement"], kind: CredentialRef["kind"] = "api_key"): CredentialRef => ({ name: "cata-logue", kind, hosts, placement });
const env = { CATA_LOGUE_API_KEY: SECRET };

describe("credential placement", () => {
  it("names the variable after the credential", () => {
    expect(credentialVariable("cata-logue")).toBe("CATA_LOGUE_API_KEY");
  });

  it("puts an api_key in the named header", async () => {
    const api = await serve(ok);
    await egress({ operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], { in: "header", name: "X-Api-Key" }) }, testPolicy([api.host], { env }));
    expect(api.received[0]?.headers["x-api-key"]).toBe(SECRET);
  });

  it("puts an api_key in the query, keeping other parameters", async () => {
    const api = await serve(ok);
    const res = await egress(
      { operation: "op", method: "GET", url: `${api.origin}/items?q=a`, credential: cred([api.host], { in: "query", name: "key" }) },
      testPolicy([api.host], { env }),
    );
    expect(new URL(api.received[0]!.url, api.origin).searchParams.get("key")).toBe(SECRET);
    expect(new URL(api.received[0]!.url, api.origin).searchParams.get("q")).toBe("a");
    expect(res.url).not.toContain("key=");
  });

  it("adds an api_key cookie to the caller's cookies", async () => {
    const api = await serve(ok);
    await egress(
      { operation: "op", method: "GET", url: `${api.origin}/`, headers: { cookie: "a=1" }, credential: cred([api.host], { in: "cookie", name: "session" }) },
      testPolicy([api.host], { env }),
    );
    expect(api.received[0]?.headers.cookie).toBe(`a=1; session=${SECRET}`);
  });

  it("sends bearer and oauth2 as Authorization: Bearer", async () => {
    const api = await serve(ok);
    await egress({ operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], { in: "bearer" }, "bearer") }, testPolicy([api.host], { env }));
    await egress({ operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], { in: "header", name: "x" }, "oauth2") }, testPolicy([api.host], { env }));
    expect(api.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${SECRET}`, `Bearer ${SECRET}`]);
  });

  it("sends basic as HTTP Basic of user:secret whatever the placement", async () => {
    const api = await serve(ok);
    await egress(
      { operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], { in: "query", name: "k" }, "basic") },
      testPolicy([api.host], { env: { CATA_LOGUE_API_KEY: "ann:pa55" } }),
    );
    expect(api.received[0]?.headers.authorization).toBe(`Basic ${Buffer.from("ann:pa55").toString("base64")}`);
    expect(api.received[0]?.url).toBe("/");
  });

  it("matches hosts exactly, with a written default port equal to none", () => {
    expect(credentialCovers(["api.example.com:443"], new URL("https://api.example.com/"))).toBe(true);
    expect(credentialCovers(["API.example.com"], new URL("https://api.example.com/"))).toBe(true);
    expect(credentialCovers(["api.example.com"], new URL("https://api.example.com:8443/"))).toBe(false);
    expect(credentialCovers(["api.example.com"], new URL("https://evil.api.example.com/"))).toBe(false);
    expect(credentialCovers(["127.0.0.1:80"], new URL("http://localhost/"))).toBe(false);
  });
});

describe("credential scope", () => {
  it("is not sent to a declared host outside credential.hosts", async () => {
    const other = await serve(ok);
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/next` });
      res.end();
    });
    for (const placement of [{ in: "header", name: "x-api-key" }, { in: "cookie", name: "sid" }, { in: "bearer" }] as const) {
      await egress({ operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], placement, "bearer") }, testPolicy([api.host, other.host], { env }));
    }
    expect(api.received.map((r) => r.headers.authorization ?? r.headers["x-api-key"] ?? r.headers.cookie)).toEqual([SECRET, `sid=${SECRET}`, `Bearer ${SECRET}`]);
    for (const r of other.received) expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(other.received).toHaveLength(3);
  });

  it("does not carry a query credential along a Location that echoes it", async () => {
    const other = await serve(ok);
    const api = await serve((req, res) => {
      res.writeHead(302, { location: `${other.origin}/next${req.url?.slice(1) ?? ""}` });
      res.end();
    });
    const res = await egress(
      { operation: "op", method: "GET", url: `${api.origin}/?q=1`, credential: cred([api.host], { in: "query", name: "key" }) },
      testPolicy([api.host, other.host], { env }),
    );
    expect(api.received[0]?.url).toContain("key=");
    expect(other.received[0]?.url).toBe("/next?q=1");
    expect(res.url).toBe(`${other.origin}/next?q=1`);
  });

  it("goes back on when a redirect returns to a covered host", async () => {
    const api = await serve((req, res) => {
      if (req.url === "/start") {
        res.writeHead(302, { location: `${other.origin}/bounce` });
        res.end();
      } else json(res, 200, {});
    });
    const other = await serve((_req, res) => {
      res.writeHead(302, { location: `${api.origin}/home` });
      res.end();
    });
    await egress({ operation: "op", method: "GET", url: `${api.origin}/start`, credential: cred([api.host], { in: "bearer" }, "bearer") }, testPolicy([api.host, other.host], { env }));
    expect(api.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${SECRET}`, `Bearer ${SECRET}`]);
    expect(other.received[0]?.headers.authorization).toBeUndefined();
  });
});

describe("credential reading", () => {
  it("throws CredentialUnavailable naming credential and variable, before anything is sent", async () => {
    const api = await serve(ok);
    const failure = egress({ operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], { in: "bearer" }, "bearer") }, testPolicy([api.host]));
    await expect(failure).rejects.toBeInstanceOf(CredentialUnavailable);
    await expect(failure).rejects.toMatchObject({ details: { credential: "cata-logue", variable: "CATA_LOGUE_API_KEY" } });
    expect(api.received).toHaveLength(0);
  });

  it("reads the environment at request time, every request", async () => {
    const api = await serve(ok);
    const liveEnv: Record<string, string | undefined> = { CATA_LOGUE_API_KEY: "first" };
    const policy = testPolicy([api.host], { env: liveEnv });
    const request = { operation: "op", method: "GET", url: `${api.origin}/`, credential: cred([api.host], { in: "bearer" }, "bearer") };
    await egress(request, policy);
    liveEnv.CATA_LOGUE_API_KEY = "second";
    await egress(request, policy);
    expect(api.received.map((r) => r.headers.authorization)).toEqual(["Bearer first", "Bearer second"]);
  });

  it("sends once more after a 401 when the credential source refreshed (the OAuth seam)", async () => {
    const api = await serve((req, res) => (req.headers.authorization === "Bearer fresh" ? json(res, 200, {}) : json(res, 401, {})));
    let token = "stale";
    const source: CredentialSource = {
      read: () => token,
      rejected: async () => {
        token = "fresh";
        return true;
      },
    };
    const res = await egress({ operation: "op", method: "POST", url: `${api.origin}/`, credential: cred([api.host], { in: "bearer" }, "oauth2") }, testPolicy([api.host], { credentials: source }));
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
  });
});

describe("scrubbing a body that arrives in chunks", () => {
  const basic = "ann:pa55/w+rd";
  const forms = (value: string) => [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), Buffer.from(value).toString("base64")];
  // [what, credential value, placement, the form the body echoes]
  const cases: Array<[string, string, CredentialRef["placement"], string]> = [
    ...forms(SECRET).map((form): [string, string, CredentialRef["placement"], string] => ["a bearer value", SECRET, { in: "bearer" }, form]),
    ...forms("pa55/w+rd").map((form): [string, string, CredentialRef["placement"], string] => ["a basic secret part", basic, { in: "basic" }, form]),
  ];

  it.each(cases)("replaces %s wherever the chunks split it (case %#)", (_what, value, placement, form) => {
    const body = Buffer.from(`{"a":"${form}","b":"x${form}${form}"}`);
    const scrub = scrubberFor(value, placement);
    const whole = Buffer.from(scrub.bytes(body)).toString("utf8");
    for (let i = 0; i <= body.length; i++) {
      for (const j of [i, Math.min(body.length, i + 3), body.length]) {
        const stream = scrub.stream();
        const out = Buffer.concat([stream.write(body.subarray(0, i)), stream.write(body.subarray(i, j)), stream.write(body.subarray(j)), stream.end()]).toString("utf8");
        expect(out, `split at ${i}/${j}`).not.toContain(form);
        expect(out, `split at ${i}/${j}`).toBe(whole);
      }
    }
    expect(whole).toBe('{"a":"[redacted]","b":"x[redacted][redacted]"}');
  });

  it("releases held bytes that turn out not to be the value, at the next chunk or the end", () => {
    const stream = scrubberFor(SECRET, { in: "bearer" }).stream();
    expect(stream.write(Buffer.from("abc s3cr")).toString()).toBe("abc ");
    expect(stream.write(Buffer.from("ap ")).toString()).toBe("s3crap ");
    expect(stream.write(Buffer.from("s3c")).toString()).toBe("");
    expect(stream.end().toString()).toBe("s3c");
  });

  it("leaves an answer whole when a basic value has no secret part (`user:`, `:`): the user name is not a secret", () => {
    const body = Buffer.from('{"open":true,"closes":"18:00","user":"ann:"}');
    for (const value of [":", "ann:"]) {
      const scrub = scrubberFor(value, { in: "basic" });
      expect(Buffer.from(scrub.bytes(body)).toString("utf8"), value).toBe(body.toString("utf8"));
      expect(scrub.text("HTTP 401: Og== YW5uOg==")).toBe("HTTP 401: Og== YW5uOg==");
    }
    // With a secret part, the whole value and the secret are still removed.
    expect(scrubberFor("ann:pw", { in: "basic" }).text("ann:pw pw YW5uOnB3")).toBe("[redacted] [redacted] [redacted]");
  });

  it("passes chunks through unchanged when no credential went out", () => {
    const stream = scrubberFor(undefined).stream();
    expect(stream.write(Buffer.from("s3cr3t")).toString()).toBe("s3cr3t");
    expect(stream.end()).toHaveLength(0);
  });
});
