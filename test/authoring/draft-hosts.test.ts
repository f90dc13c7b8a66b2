// --draft-host: the operator's exact grant of a non-public host, and the way
// forward every UrlNotPublic and DraftRefused names. The real public-https
// check is used throughout (no test seam): the grant is what lets loopback in.
import { afterEach, describe, expect, it } from "vitest";
import { Authoring } from "../../src/authoring/index.js";
import { normalDraftHost, withDraftHosts } from "../../src/authoring/draft-hosts.js";
import { publicHttpsUrl } from "../../src/authoring/public-url.js";
import { parseOptions } from "../../src/cli/options.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import { DEFAULT_LIMITS } from "../../src/cli/options.js";
import { OAuthGrants } from "../../src/oauth/grants.js";
import { newSession } from "../../src/session.js";
import { openToolbox } from "../../src/tools/toolbox.js";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";

let api: ApiFixture | undefined;
afterEach(async () => api?.close());

describe("normalDraftHost", () => {
  it.each([
    ["127.0.0.1:8080", "127.0.0.1:8080"],
    ["LOCALHOST:3000", "localhost:3000"],
    ["[::1]:9000", "[::1]:9000"],
    ["api.internal:443", "api.internal"],
    ["10.0.0.5", "10.0.0.5"],
  ])("%s is %s", (raw, host) => expect(normalDraftHost(raw)).toBe(host));

  it.each(["", "http://127.0.0.1", "127.0.0.1/x", "user@host", "host:99999", "a b"])("refuses %j", (raw) => expect(normalDraftHost(raw)).toBeUndefined());

  it("is the --draft-host option, repeatable, with a usage error naming a bad value", () => {
    expect(parseOptions(["--draft-host", "127.0.0.1:8080", "--draft-host", "Intranet.example:443"]).draftHosts).toEqual(["127.0.0.1:8080", "intranet.example"]);
    expect(() => parseOptions(["--draft-host", "http://x"])).toThrow(/--draft-host "http:\/\/x": expected a host/);
  });
});

describe("withDraftHosts", () => {
  const check = withDraftHosts(["127.0.0.1:8080", "10.0.0.5", "localhost:80"], publicHttpsUrl);
  it.each([
    ["http://127.0.0.1:8080/openapi.json", undefined],
    ["https://127.0.0.1:8080/x", undefined],
    ["https://10.0.0.5/x", undefined],
    ["http://localhost/x", undefined],
    ["https://api.example.com/x", undefined],
  ])("lets %s through", (url, want) => expect(check(new URL(url))).toBe(want));

  it.each([
    ["https://127.0.0.1:8081/x", "loopback"],
    ["http://localhost:8080/x", "grants it with --draft-host localhost:8080"],
    ["https://127.0.0.2:8080/x", "loopback"],
    ["https://10.0.0.5:8443/x", "private"],
    ["https://10.0.0.6/x", "private"],
    ["http://10.0.0.5/x", "https"],
  ])("still refuses %s (only the exact host[:port] is granted)", (url, why) => expect(check(new URL(url))).toContain(why));
});

function setup(hosts: string[]) {
  const limits = { ...DEFAULT_LIMITS, requestTimeoutMs: 5_000 };
  const registry = new RunRegistry(
    {
      limits,
      ledger: chainedLedgers(memorySinks()),
      newRunId: () => "run-1",
      openToolbox: (stepfile, ledger, checkInputs) => openToolbox(stepfile, ledger, checkInputs, { limits, env: {}, version: "test", grants: new OAuthGrants() }),
    },
    60_000,
  );
  const authoring = new Authoring({ catalog: () => [], grants: { credentials: [], settings: [], hosts }, env: {}, requests: { userAgent: "stepgate/test", timeoutMs: 5_000, maxBytes: 1_000_000 } });
  const session = newSession();
  return { registry, authoring, session, caller: { registry, session, approver: () => undefined } };
}

const draft = (origin: string) => `stepgate: "1"
id: count-items
inputs: { type: object }
tools:
  shop:
    openapi:
      server: "${origin}"
      document:
        openapi: 3.1.0
        info: { title: shop, version: "1" }
        paths: { /items: { get: { operationId: listItems, responses: { "200": { description: ok } } } } }
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

describe("stepgate_try with --draft-host", () => {
  it("runs a draft against a granted loopback API to the end", async () => {
    api = await startApiFixture([{ method: "GET", path: "/items", answers: [{ json: { items: [1, 2] } }] }]);
    const { registry, authoring, session, caller } = setup([api.host]);
    expect(await authoring.call("stepgate_try", { text: draft(api.origin) }, caller)).toMatchObject({ kind: "run", reply: { kind: "step" } });
    expect(await registry.call("run-1", session, "listItems", {})).toMatchObject({ kind: "call", isError: false });
    expect(await registry.submit("run-1", session, { count: 2 })).toMatchObject({ kind: "finished" });
  });

  it("refuses a draft whose host is not granted, naming the way forward, and sends nothing", async () => {
    api = await startApiFixture([]);
    const { authoring, caller } = setup(["127.0.0.1:1"]);
    const refused = authoring.call("stepgate_try", { text: draft(api.origin) }, caller);
    await expect(refused).rejects.toMatchObject({ name: "DraftRefused", message: expect.stringMatching(/not granted with --draft-host.*--draft-host <host\[:port\]>.*serve it with stepgate <path>/) });
    expect(api.received).toEqual([]);
  });

  it("validate says the same way forward", async () => {
    const { authoring, caller } = setup([]);
    const answer = await authoring.call("stepgate_validate", { text: draft("http://127.0.0.1:9") }, caller);
    expect(answer).toMatchObject({ kind: "data", data: { try: { accepted: false } }, text: expect.stringContaining("--draft-host <host[:port]>") });
    // A grant makes plain http:// to this machine work, so the refusal does not say only https:// is allowed.
    const text = answer.kind === "data" ? answer.text : "";
    expect(text).toContain("127.0.0.1 is this machine, which drafts reach (over http:// too) only once the operator grants it with --draft-host 127.0.0.1:9");
    expect(text).not.toContain("only https:// is allowed");
  });
});

describe("stepgate_inspect_api: inline documents and refusals that say what to do", () => {
  const document = `openapi: 3.1.0
info: { title: billing, version: "1" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /invoices:
    get:
      operationId: listInvoices
      parameters: [{ name: status, in: query, schema: { type: string } }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
`;

  it("lists an inline YAML document's operations, arguments and responses without any request", async () => {
    const { authoring, caller } = setup([]);
    const answer = await authoring.call("stepgate_inspect_api", { document }, caller);
    expect(answer).toMatchObject({
      kind: "data",
      data: { kind: "openapi", title: "billing", sha256: expect.stringMatching(/^sha256:/), operations: [{ operationId: "listInvoices", method: "GET", arguments: { properties: { status: { type: "string" } } }, success: { status: "200" } }] },
      text: expect.stringContaining("document: <this document>"),
    });
    expect((answer as { data: Record<string, unknown> }).data.url).toBeUndefined();
  });

  it("takes JSON text too, and refuses a document over the byte cap", async () => {
    const small = new Authoring({ catalog: () => [], grants: { credentials: [], settings: [] }, env: {}, requests: { userAgent: "t", timeoutMs: 1000, maxBytes: 200 } });
    const { caller } = setup([]);
    const json = JSON.stringify({ openapi: "3.1.0", info: { title: "x", version: "1" }, paths: {} });
    await expect(small.call("stepgate_inspect_api", { document: json }, caller)).resolves.toMatchObject({ data: { operations: [] } });
    await expect(small.call("stepgate_inspect_api", { document: json + " ".repeat(300) }, caller)).rejects.toMatchObject({ name: "ApiDocumentInvalid", message: expect.stringContaining("more than the 200") });
  });

  it("refuses a document pasted as url without echoing it, pointing at document", async () => {
    const { authoring, caller } = setup([]);
    const refused = authoring.call("stepgate_inspect_api", { url: document }, caller);
    await expect(refused).rejects.toMatchObject({ name: "UrlNotPublic", message: expect.stringContaining("looks like a document") });
    await expect(refused).rejects.toMatchObject({ message: expect.stringContaining("as document") });
    const message = await refused.catch((e: Error) => e.message);
    expect(message).not.toContain("listInvoices");
  });

  it("refuses a loopback URL naming both ways forward, and inspects it once granted", async () => {
    api = await startApiFixture([{ method: "GET", path: "/openapi.yaml", answers: [{ text: document, headers: { "content-type": "application/yaml" } }] }]);
    const refused = setup([]);
    await expect(refused.authoring.call("stepgate_inspect_api", { url: `${api.origin}/openapi.yaml` }, refused.caller)).rejects.toMatchObject({
      name: "UrlNotPublic",
      message: expect.stringMatching(/as document .*--draft-host/),
    });
    const granted = setup([api.host]);
    await expect(granted.authoring.call("stepgate_inspect_api", { url: `${api.origin}/openapi.yaml` }, granted.caller)).resolves.toMatchObject({ data: { url: `${api.origin}/openapi.yaml`, operations: [{ operationId: "listInvoices" }] } });
  });

  it("asks for exactly one of url and document", async () => {
    const { authoring, caller } = setup([]);
    await expect(authoring.call("stepgate_inspect_api", {}, caller)).resolves.toMatchObject({ kind: "usage", text: expect.stringContaining("exactly one of url") });
    await expect(authoring.call("stepgate_inspect_api", { url: "https://a.example/x", document }, caller)).resolves.toMatchObject({ kind: "usage" });
  });
});
