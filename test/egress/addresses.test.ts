// Issue 12, resolved-address checks: a declared DNS name whose answer is not
// a public address is refused at connect time, naming the host and the
// address; the socket connects to the address that was checked. Resolvers
// are injected: no real DNS.
import { describe, expect, it } from "vitest";
import { request } from "undici";
import { EgressDenied } from "../../src/errors.js";
import { egress } from "../../src/egress/index.js";
import { addressProblem } from "../../src/egress/addresses.js";
import { addressGuard, type Resolver } from "../../src/egress/address-guard.js";
import { loopbackPerTest, testPolicy } from "./loopback.js";

const { serve } = loopbackPerTest();

/** A resolver answering from a table, counting the questions it was asked. */
function table(answers: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

describe("which addresses are not public", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.0.1", "a private address"],
    ["169.254.169.254", "a link-local address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["0.0.0.0", "an unspecified address"],
    ["224.0.0.251", "a multicast address"],
    ["255.255.255.255", "a reserved address"],
    ["::1", "a loopback address"],
    ["::", "an unspecified address"],
    ["fd12:3456::1", "a private (unique-local) address"],
    ["fe80::1%eth0", "a link-local address"],
    ["ff02::1", "a multicast address"],
    ["::ffff:7f00:1", "a loopback address (IPv4-mapped 127.0.0.1)"],
    ["::ffff:169.254.169.254", "a link-local address (IPv4-mapped 169.254.169.254)"],
    ["64:ff9b::a00:1", "a private address (NAT64 10.0.0.1)"],
    ["64:ff9b:1::1", "a local NAT64 address"],
    ["2002:c0a8:101::1", "a private address (6to4 192.168.1.1)"],
  ])("%s is %s", (address, reason) => {
    expect(addressProblem(address)).toBe(`${address.replace(/%.*$/, "")} is ${reason}`);
  });

  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "api.example.com"])("%s is public (or not an address)", (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });
});

describe("a declared name that resolves to a private address", () => {
  it.each([
    ["10.0.0.5", "10.0.0.5, a private address"],
    ["169.254.169.254", "169.254.169.254, a link-local address"],
    ["fd00::5", "fd00::5, a private (unique-local) address"],
    ["::ffff:7f00:1", "::ffff:7f00:1, a loopback address (IPv4-mapped 127.0.0.1)"],
  ])("is refused before anything is sent (%s)", async (address, problem) => {
    const resolve = table({ "api.example.com": [address] });
    const policy = testPolicy(["api.example.com"], { addresses: addressGuard({ resolve }) });
    const failure = egress({ operation: "get", method: "GET", url: "https://api.example.com/items" }, policy);
    await expect(failure).rejects.toBeInstanceOf(EgressDenied);
    await expect(failure).rejects.toMatchObject({
      message: `request to api.example.com refused: it resolves to ${problem}; if this is your own API, start Stepgate with --allow-private-host api.example.com`,
      details: { host: "api.example.com", address },
    });
    // Refused, not retried as a network error.
    expect(resolve.asked).toEqual(["api.example.com"]);
    expect(policy.retries).toEqual([]);
  });

  it("is refused when any one of its addresses is private", async () => {
    const resolve = table({ "api.example.com": ["93.184.215.14", "10.0.0.9"] });
    await expect(egress({ operation: "get", method: "GET", url: "https://api.example.com/" }, testPolicy(["api.example.com"], { addresses: addressGuard({ resolve }) }))).rejects.toMatchObject({
      details: { host: "api.example.com", address: "10.0.0.9" },
    });
  });

  it("is checked in its trailing-dot spelling too, which matches the declared host", async () => {
    const resolve = table({ "api.example.com": ["127.0.0.1"] });
    const failure = egress({ operation: "get", method: "GET", url: "https://api.example.com./" }, testPolicy(["api.example.com"], { addresses: addressGuard({ resolve }) }));
    await expect(failure).rejects.toMatchObject({ name: "EgressDenied", details: { host: "api.example.com", address: "127.0.0.1" } });
  });
});

describe("the guard's dispatcher", () => {
  // Plain http to a name is refused by egress's scheme rule, so these drive the dispatcher itself.
  it("connects to the address it checked, resolving once per connection", async () => {
    const api = await serve((_req, res) => res.end("reached"));
    const resolve = table({ "api.internal.test": ["127.0.0.1"] });
    const { dispatcher } = addressGuard({ resolve, allowPrivateHosts: ["API.internal.test."] });
    const res = await request(`http://api.internal.test:${api.port}/`, { dispatcher });
    expect(await res.body.text()).toBe("reached");
    expect(resolve.asked).toEqual(["api.internal.test"]);
    expect(api.received[0]?.headers.host).toBe(`api.internal.test:${api.port}`);
  });

  it("allows only the names it was given", async () => {
    const api = await serve((_req, res) => res.end("reached"));
    const resolve = table({ "api.internal.test": ["127.0.0.1"], "other.internal.test": ["127.0.0.1"] });
    const { dispatcher } = addressGuard({ resolve, allowPrivateHosts: ["api.internal.test"] });
    await expect(request(`http://other.internal.test:${api.port}/`, { dispatcher })).rejects.toMatchObject({ name: "EgressDenied", details: { host: "other.internal.test" } });
    expect(api.received).toEqual([]);
  });

  it("lets localhost resolve to this machine (hosts.ts requires it to be declared)", async () => {
    const api = await serve((_req, res) => res.end("local"));
    const { dispatcher } = addressGuard({ resolve: table({ localhost: ["127.0.0.1"] }) });
    expect(await (await request(`http://localhost:${api.port}/`, { dispatcher })).body.text()).toBe("local");
  });

  it("passes a resolver failure on as a network error", async () => {
    const { dispatcher } = addressGuard({ resolve: table({}) });
    await expect(request("http://nowhere.example.test:9/", { dispatcher })).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});

describe("literal forms", () => {
  it.each(["2130706433", "0x7f.1", "127.1", "0177.0.0.1"])("%s is 127.0.0.1 for every check", async (form) => {
    const api = await serve((_req, res) => res.end("ok"));
    // Declared as 127.0.0.1:<port>: the folded form matches, so it is reached.
    const res = await egress({ operation: "get", method: "GET", url: `http://${form}:${api.port}/` }, testPolicy([api.host]));
    expect(res.host).toBe(api.host);
  });

  it("refuses a redirect to an undeclared local address under the document exception", async () => {
    const api = await serve((_req, res) => res.writeHead(302, { location: "https://[::ffff:a9fe:a9fe]/latest/meta-data/" }).end());
    const failure = egress({ operation: "document", method: "GET", url: `${api.origin}/openapi.json`, allowAnyHost: true }, testPolicy([]));
    await expect(failure).rejects.toMatchObject({
      name: "EgressDenied",
      message: "request to https://[::ffff:a9fe:a9fe]/latest/meta-data/ refused: ::ffff:a9fe:a9fe is a link-local address (IPv4-mapped 169.254.169.254), and no tool declares it",
    });
  });
});
