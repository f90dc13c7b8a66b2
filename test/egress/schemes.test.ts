// Spec section 2: plain http only for localhost, 127.0.0.1 and [::1]. The
// allowlist compares URL.host, which is the same for http and https on
// default ports, so every hop's scheme is checked too, and a credential
// never rides on plain http to a non-loopback host.
import { MockAgent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EgressDenied } from "../../src/errors.js";
import { type CredentialRef, egress, egressFetch } from "../../src/egress/index.js";
import { assertHostAllowed, credentialCovers } from "../../src/egress/hosts.js";
import { json, loopbackPerTest, testPolicy } from "./loopback.js";

const { serve } = loopbackPerTest();
const SECRET = "k-3f9a/+=";
const bearer = (hosts: string[]): CredentialRef => ({ name: "api", kind: "bearer", hosts, placement: { in: "bearer" } });

describe("an https host redirecting to plain http (no socket: undici MockAgent)", () => {
  // egress sends with undici's request(), which uses the global dispatcher;
  // the mock stands in for a public https API, which no loopback test can be.
  let previous: Dispatcher;
  let agent: MockAgent;
  beforeEach(() => {
    previous = getGlobalDispatcher();
    agent = new MockAgent();
    agent.disableNetConnect();
    setGlobalDispatcher(agent);
  });
  afterEach(async () => {
    setGlobalDispatcher(previous);
    await agent.close();
  });

  it("refuses the http hop on the same declared host before sending it, credential and all", async () => {
    const sentOverHttp: unknown[] = [];
    agent.get("https://api.example.com").intercept({ path: "/start", method: "GET" }).reply(302, "", { headers: { location: "http://api.example.com/next?q=1" } });
    agent
      .get("http://api.example.com")
      .intercept({ path: /.*/, method: "GET" })
      .reply(200, (opts) => {
        sentOverHttp.push(opts.headers);
        return "{}";
      });
    const failure = egress(
      { operation: "get", method: "GET", url: "https://api.example.com/start", credential: bearer(["api.example.com"]) },
      // The mock stands in for the address guard's dispatcher, which egress uses instead of the global one.
      testPolicy(["api.example.com"], { env: { API_API_KEY: SECRET }, addresses: { dispatcher: agent } }),
    );
    await expect(failure).rejects.toBeInstanceOf(EgressDenied);
    // Named without its query, which may hold arguments or a key.
    await expect(failure).rejects.toMatchObject({ details: { host: "api.example.com", url: "http://api.example.com/next" }, message: expect.stringContaining("plain http://") as unknown });
    expect(sentOverHttp).toEqual([]);
  });
});

describe("plain http on loopback sockets", () => {
  it("refuses a redirect to http on a declared non-loopback host before any connection", async () => {
    let hopsToElsewhere = 0;
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: "http://example.invalid/landing?token=abc" });
      res.end();
    });
    const policy = testPolicy([api.host, "example.invalid"], { env: { API_API_KEY: SECRET }, onRetry: () => hopsToElsewhere++ });
    const failure = egress({ operation: "get", method: "GET", url: `${api.origin}/go`, credential: bearer([api.host, "example.invalid"]) }, policy);
    // Before the fix this was a DNS failure, retried: a connection was attempted.
    await expect(failure).rejects.toBeInstanceOf(EgressDenied);
    await expect(failure).rejects.toMatchObject({ details: { url: "http://example.invalid/landing" } });
    expect(hopsToElsewhere).toBe(0);
    expect(api.received).toHaveLength(1);
  });

  it("refuses a first hop to http on a non-loopback host, for egressFetch and the host-check exceptions too", async () => {
    await expect(egress({ operation: "doc", method: "GET", url: "http://example.invalid/openapi.json", allowAnyHost: true }, testPolicy([]))).rejects.toBeInstanceOf(EgressDenied);
    await expect(egressFetch(testPolicy(["example.invalid"]))("http://example.invalid/mcp")).rejects.toBeInstanceOf(EgressDenied);
  });

  it("still follows http between the loopback hosts, with the credential where covered", async () => {
    const target = await serve((_req, res) => json(res, 200, {}));
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${target.port}/landed` });
      res.end();
    });
    const res = await egress(
      { operation: "get", method: "GET", url: `${api.origin}/`, credential: bearer([api.host, `localhost:${target.port}`]) },
      testPolicy([api.host, `localhost:${target.port}`], { env: { API_API_KEY: SECRET } }),
    );
    expect(res.status).toBe(200);
    expect(target.received[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });
});

describe("the scheme checks on their own", () => {
  it("assertHostAllowed refuses http to a declared non-loopback host and allows https and loopback http", () => {
    const hosts = new Set(["api.example.com", "localhost:8080", "127.0.0.1:8080", "[::1]:8080"]);
    expect(() => assertHostAllowed(new URL("http://api.example.com/x"), hosts, false)).toThrow(EgressDenied);
    expect(() => assertHostAllowed(new URL("http://127.0.0.2:8080/x"), new Set(["127.0.0.2:8080"]), false)).toThrow(EgressDenied);
    expect(() => assertHostAllowed(new URL("https://api.example.com/x"), hosts, false)).not.toThrow();
    for (const url of ["http://localhost:8080/", "http://LOCALHOST:8080/", "http://127.0.0.1:8080/", "http://[::1]:8080/"]) {
      expect(() => assertHostAllowed(new URL(url), hosts, false), url).not.toThrow();
    }
  });

  it("credentialCovers never attaches to http on a non-loopback host", () => {
    expect(credentialCovers(["api.example.com"], new URL("http://api.example.com/"))).toBe(false);
    expect(credentialCovers(["api.example.com:80"], new URL("http://api.example.com/"))).toBe(false);
    expect(credentialCovers(["api.example.com:8080"], new URL("http://api.example.com:8080/"))).toBe(false);
    expect(credentialCovers(["api.example.com"], new URL("https://api.example.com/"))).toBe(true);
    expect(credentialCovers(["localhost:8080"], new URL("http://localhost:8080/"))).toBe(true);
    expect(credentialCovers(["127.0.0.1:8080"], new URL("http://127.0.0.1:8080/"))).toBe(true);
    expect(credentialCovers(["[::1]:8080"], new URL("http://[::1]:8080/"))).toBe(true);
  });
});
