// Issue 12 through the built CLI: a declared https name that resolves to a
// private address is refused (EgressDenied naming host and address, the run
// ends, the ledger says so), unless the operator names that host with
// --allow-private-host. DNS is the fake-dns preload; the server is loopback.
import { afterEach, expect, it } from "vitest";
import { namedHostEnv, serveHttps, type HttpsFixture } from "../support/https-fixture.js";
import { cleanUp, oneStep, startRun, structured, text } from "./cli-run.js";

const servers: HttpsFixture[] = [];
afterEach(async () => {
  await cleanUp();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const document = { openapi: "3.1.0", info: { title: "x", version: "1" }, paths: { "/item": { get: { operationId: "getItem" } } } };

async function internalApi() {
  const api = await serveHttps((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ key: "K-1" })));
  servers.push(api);
  const stepfile = oneStep("internal", { tools: { api: { openapi: { server: `https://api.internal.test:${api.port}`, document }, exposes: ["getItem"] } } }, { tools: ["getItem"] });
  return { api, stepfile };
}

it("refuses a name that resolves to a loopback address, naming the host and the address", async () => {
  const { api, stepfile } = await internalApi();
  const run = await startRun(stepfile, {}, { env: namedHostEnv({ "api.internal.test": ["127.0.0.1"] }) });
  const called = await run.call("getItem");
  expect(text(called)).toMatch(/^EgressDenied/);
  expect(text(called)).toContain("request to api.internal.test refused: it resolves to 127.0.0.1, a loopback address; if this is your own API, start Stepgate with --allow-private-host api.internal.test");
  expect(structured(called)).toMatchObject({ state: "failed", error: "EgressDenied" });
  expect(api.received).toEqual([]);
  const { ledger } = await run.finish();
  expect(ledger.at(-1)).toMatchObject({ type: "run_failed", error: "EgressDenied" });
});

it("reaches it with --allow-private-host <that host>, connecting to the checked address", async () => {
  const { api, stepfile } = await internalApi();
  const run = await startRun(stepfile, {}, { env: namedHostEnv({ "api.internal.test": ["127.0.0.1"] }), args: ["--allow-private-host", "api.internal.test"] });
  const called = await run.call("getItem");
  expect(called.isError).toBeFalsy();
  expect(text(called)).toContain("K-1");
  expect(api.received).toEqual([{ method: "GET", path: "/item", host: `api.internal.test:${api.port}` }]);
});

it("does not let --allow-private-host for one host cover another", async () => {
  const { api, stepfile } = await internalApi();
  const run = await startRun(stepfile, {}, { env: namedHostEnv({ "api.internal.test": ["10.0.0.7", "127.0.0.1"] }), args: ["--allow-private-host", "other.internal.test"] });
  expect(text(await run.call("getItem"))).toContain("it resolves to 10.0.0.7, a private address");
  expect(api.received).toEqual([]);
});
