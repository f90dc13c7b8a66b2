// stepgate_try with a draft that calls a real API on loopback, in process:
// the draft's run goes through the registry and egress like any run, and a
// granted credential reaches only its granted host. Loopback stands in for
// the public internet through the internal public-URL seam (tests only).
import { chainedLedgers } from "../../src/ledger/chain.js";
import { OAuthGrants } from "../../src/oauth/grants.js";
import { afterEach, describe, expect, it } from "vitest";
import { Authoring } from "../../src/authoring/index.js";
import type { PublicUrlCheck } from "../../src/authoring/public-url.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import { DEFAULT_LIMITS } from "../../src/cli/options.js";
import { newSession } from "../../src/session.js";
import { openToolbox } from "../../src/tools/toolbox.js";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";

const loopbackIsPublic: PublicUrlCheck = (url) => (url.hostname === "127.0.0.1" ? undefined : "not the test loopback");
let api: ApiFixture | undefined;
afterEach(async () => api?.close());

function setup(env: Record<string, string>, credentials: Array<{ name: string; hosts: string[] }>) {
  const limits = { ...DEFAULT_LIMITS, requestTimeoutMs: 5_000 };
  const registry = new RunRegistry(
    {
      limits,
      ledger: chainedLedgers(memorySinks()),
      newRunId: () => "run-1",
      openToolbox: (stepfile, ledger, checkInputs) => openToolbox(stepfile, ledger, checkInputs, { limits, env, version: "test", grants: new OAuthGrants() }),
    },
    60_000,
  );
  const authoring = new Authoring({
    catalog: () => [],
    grants: { credentials, settings: [] },
    env,
    requests: { userAgent: "stepgate/test", timeoutMs: 5_000, maxBytes: 1_000_000 },
    publicUrl: loopbackIsPublic,
  });
  const session = newSession();
  return { registry, authoring, session, caller: { registry, session, approver: () => undefined } };
}

const draft = (origin: string, host: string) => `stepgate: "1"
id: count-items
inputs: { type: object }
credentials:
  key: { kind: api_key, hosts: ["${host}"], description: the API key }
tools:
  shop:
    openapi:
      server: "${origin}"
      document:
        openapi: 3.1.0
        info: { title: shop, version: "1" }
        components: { securitySchemes: { k: { type: apiKey, in: header, name: x-key } } }
        security: [{ k: [] }]
        paths: { /items: { get: { operationId: listItems, responses: { "200": { description: ok } } } } }
    credential: key
    exposes: [listItems]
steps:
  - id: count
    instructions: Count the items listItems returns.
    tools: [listItems]
    produces: { type: object, required: [count], properties: { count: { type: integer } } }
    gates:
      - id: real-count
        message: the count must be the number of items listItems returned
        predicate: { "==": [{ var: output.count }, { length: { results: [listItems, items] } }] }
`;

describe("stepgate_try with tools", () => {
  it("runs a draft's calls through egress with the granted credential, to the end", async () => {
    api = await startApiFixture([{ method: "GET", path: "/items", key: { header: "x-key", value: "k-1" }, answers: [{ json: { items: [1, 2, 3] } }] }]);
    const { registry, authoring, session, caller } = setup({ KEY_API_KEY: "k-1" }, [{ name: "key", hosts: [api.host] }]);
    const started = await authoring.call("stepgate_try", { text: draft(api.origin, api.host) }, caller);
    expect(started).toMatchObject({ kind: "run", reply: { kind: "step", state: "running" } });
    expect(await registry.call("run-1", session, "listItems", {})).toMatchObject({ kind: "call", isError: false });
    expect(await registry.submit("run-1", session, { count: 3 })).toMatchObject({ kind: "finished", outputs: { count: { count: 3 } } });
    expect(api.received.map((r) => r.headers["x-key"])).toEqual(["k-1"]);
  });

  it("refuses the draft before any request when the credential's host is not granted", async () => {
    api = await startApiFixture([]);
    const { authoring, caller } = setup({ KEY_API_KEY: "k-1" }, [{ name: "key", hosts: ["127.0.0.1:1"] }]);
    await expect(authoring.call("stepgate_try", { text: draft(api.origin, api.host) }, caller)).rejects.toMatchObject({ name: "DraftRefused", details: { rules: [expect.stringContaining(`lists host ${api.host}`)] } });
    expect(api.received).toEqual([]);
  });
});
