// Preflight through the built CLI: each check fails the run with
// PreflightFailed naming its item before any step is shown, in the seed's
// order (settings, inputs, credentials, OpenAPI documents, MCP servers), and
// the same checks pass when what they check is right.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { afterEach, describe, expect, it } from "vitest";
import { startMcpFixture } from "../support/mcp-fixture.js";
import { cleanUp, json, oneStep, serve, startRun, structured, text, type CliRun } from "./cli-run.js";

afterEach(cleanUp);

const DOCUMENT = { openapi: "3.1.0", info: { title: "Items", version: "1" }, paths: { "/items": { get: { operationId: "listItems" } } } };
const sha256 = (data: string) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

/** An API on loopback that answers every request with one item list. */
const itemsApi = () => serve((_req, _body, res) => json(res, 200, [{ id: "K-1" }]));

/** The reply says PreflightFailed at `item`, and no step was started. */
async function expectPreflightFailed(run: CliRun, item: string, ...mentions: string[]) {
  expect(structured(run.first)).toMatchObject({ state: "failed", error: "PreflightFailed", details: { item } });
  expect(structured(run.first).step).toBeUndefined();
  for (const m of mentions) expect(text(run.first)).toContain(m);
  const { ledger } = await run.finish();
  expect(ledger.map((r) => r.type)).toEqual(["run_started", "run_failed"]);
}

/** A stepfile whose API's port is the setting `api-port`, keyed by credential `items` on that same host:port. */
function portSettingStepfile() {
  return oneStep(
    "by-port",
    {
      inputs: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
      settings: { "api-port": { description: "The port the items API listens on.", pattern: "[0-9]+" } },
      credentials: { items: { kind: "api_key", hosts: ["127.0.0.1:{api-port}"], description: "Reads items." } },
      tools: { api: { openapi: { server: "http://127.0.0.1:{api-port}/v1", document: DOCUMENT }, exposes: ["listItems"], credential: "items" } },
    },
    { tools: ["listItems"] },
  );
}

describe("settings, inputs and credentials", () => {
  it("fill a port setting into the tool URL and the credential's hosts", async () => {
    const api = await itemsApi();
    const run = await startRun(portSettingStepfile(), { n: 1 }, { env: { API_PORT: String(api.port), ITEMS_API_KEY: "items-key-1" } });
    expect(structured(run.first)).toMatchObject({ state: "running", step: { step: "work" } });
    expect(structured(await run.call("listItems")).state).toBe("running");
    // Reached through the filled-in port, with the credential: its host was filled in too.
    expect(api.received.map((r) => [r.path, r.headers.authorization])).toEqual([["/v1/items", "Bearer items-key-1"]]);
  });

  it("fail at a missing setting, before inputs and credentials", async () => {
    // Inputs and credential are wrong as well: the setting is checked first.
    const run = await startRun(portSettingStepfile(), { n: "one" }, { env: {} });
    await expectPreflightFailed(run, "setting api-port", "API_PORT");
  });

  it("fail at a setting that does not match its pattern", async () => {
    const run = await startRun(portSettingStepfile(), { n: 1 }, { env: { API_PORT: "80/evil", ITEMS_API_KEY: "k" } });
    await expectPreflightFailed(run, "setting api-port", "[0-9]+");
  });

  it("check inputs after settings and before credentials", async () => {
    const run = await startRun(portSettingStepfile(), { n: "one" }, { env: { API_PORT: "1" } });
    await expectPreflightFailed(run, "inputs");
  });

  it("fail at a missing credential, naming it and its variable", async () => {
    const run = await startRun(portSettingStepfile(), { n: 1 }, { env: { API_PORT: "1" } });
    await expectPreflightFailed(run, "credential items", "ITEMS_API_KEY");
  });
});

describe("OpenAPI documents fetched from url", () => {
  async function documentRun(digest: (served: string) => string) {
    const served = JSON.stringify(DOCUMENT);
    // The document lives on a host no tool declares, as the seed's exception allows.
    const docs = await serve((_req, _body, res) => res.writeHead(200, { "content-type": "application/json" }).end(served));
    const api = await itemsApi();
    const stepfile = oneStep(
      "fetched-doc",
      {
        credentials: { items: { kind: "bearer", hosts: [api.host, docs.host], description: "Reads items." } },
        tools: { api: { openapi: { server: api.origin, url: `${docs.origin}/openapi.json`, sha256: digest(served) }, exposes: ["listItems"], credential: "items" } },
      },
      { tools: ["listItems"] },
    );
    // `docs.host` is among the credential's hosts only to prove the document fetch carries none anyway.
    return { run: await startRun(stepfile, {}, { env: { ITEMS_API_KEY: "items-key-2" } }), docs, api, served };
  }

  it("load with a matching sha256, fetched without any credential", async () => {
    const { run, docs, api } = await documentRun(sha256);
    expect(structured(run.first)).toMatchObject({ state: "running", step: { step: "work", operations: [{ name: "listItems" }] } });
    expect(text(await run.call("listItems"))).toContain("K-1");
    expect(docs.received.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([["GET", "/openapi.json", undefined]]);
    expect(api.received.map((r) => r.headers.authorization)).toEqual(["Bearer items-key-2"]);
  });

  it("follow a redirect on the document's own host, and refuse one to any other host", async () => {
    const served = JSON.stringify(DOCUMENT);
    const elsewhere = await serve((_req, _body, res) => res.writeHead(200, { "content-type": "application/json" }).end(served));
    const docs = await serve((req, _body, res) => {
      if (req.url === "/moved.json") res.writeHead(302, { location: "/openapi.json" }).end();
      else if (req.url === "/away.json") res.writeHead(302, { location: `${elsewhere.origin}/openapi.json` }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(served);
    });
    const api = await itemsApi();
    const stepfile = (path: string) =>
      oneStep("redirected-doc", { tools: { api: { openapi: { server: api.origin, url: `${docs.origin}${path}`, sha256: sha256(served) }, exposes: ["listItems"] } } }, { tools: ["listItems"] });
    const same = await startRun(stepfile("/moved.json"), {});
    expect(structured(same.first)).toMatchObject({ state: "running" });
    const away = await startRun(stepfile("/away.json"), {});
    await expectPreflightFailed(away, "tool api", elsewhere.host);
    expect(elsewhere.received).toEqual([]);
  });

  it("fail with a mismatching sha256, naming both digests", async () => {
    const pinned = sha256("some other document");
    const { run, served } = await documentRun(() => pinned);
    await expectPreflightFailed(run, "tool api", pinned, sha256(served));
  });
});

describe("MCP servers", () => {
  const schema = { type: "object", required: ["query"], properties: { query: { type: "string" } } };
  async function mcpRun(exposes: unknown[]) {
    const mcp = await startMcpFixture({ token: "mcp-token", tools: [{ name: "lookup", inputSchema: schema, text: "found" }] });
    const stepfile = oneStep(
      "remote",
      {
        credentials: { suppliers: { kind: "bearer", hosts: [mcp.host], description: "Looks up suppliers." } },
        tools: { suppliers: { mcp: { url: `${mcp.origin}/mcp` }, credential: "suppliers", exposes } },
      },
      { tools: ["lookup"] },
    );
    try {
      return await startRun(stepfile, {}, { env: { SUPPLIERS_API_KEY: "mcp-token" } });
    } finally {
      // The run holds its own connection; the fixture can stop once the reply is in.
      await mcp.close();
    }
  }
  // Computed here from RFC 8785 independently of Stepgate's own hashing.
  const pin = sha256(canonicalize(schema)!);

  it("accept a pin that matches the listed schema", async () => {
    const run = await mcpRun([{ name: "lookup", schema_sha256: pin }]);
    expect(structured(run.first)).toMatchObject({ state: "running", step: { step: "work", operations: [{ name: "lookup", arguments: schema }] } });
  });

  it("fail at a pin that does not match, naming both digests", async () => {
    const stale = sha256("{}");
    const run = await mcpRun([{ name: "lookup", schema_sha256: stale }]);
    await expectPreflightFailed(run, "tool suppliers", stale, pin);
  });

  it("fail at an exposed tool the server does not list", async () => {
    const run = await mcpRun(["lookup", "delete_everything"]);
    await expectPreflightFailed(run, "tool suppliers", "delete_everything");
  });
});
